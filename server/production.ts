/**
 * The server runs React's production build (the pages render with react-dom/server: faster, and no
 * development warnings in the log) unless NODE_ENV says otherwise. Imported first by main.ts.
 */
process.env.NODE_ENV ??= 'production';
