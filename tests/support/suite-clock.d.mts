export declare const SUITE_INSTANT: string;
export declare const SUITE_CLOCK_ENV: string;
export declare function pinSuiteClock(): number;
export declare function shiftDate(offset: number): void;
