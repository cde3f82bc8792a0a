export declare const NODE_TESTS: string[];
