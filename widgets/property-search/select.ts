/**
 * The chevron of our selects (native ones keep the platform's menus and keyboard): a PNG drawn at
 * twice its size (24 px for 12) from the path `M6 9l6 6 6-6`, stroked #475569 at 2.5 of 24, round
 * caps and joins. Not an SVG: the browser makes a document of its own for an SVG image on its main
 * thread, 25-30 ms of a slow phone's first render of the search (docs/benchmarks.md "Measured apart"),
 * where a PNG is decoded off it.
 */
export const CHEVRON_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAYAAADgdz34AAAACXBIWXMAAAsTAAALEwEAmpwYAAAAd0lEQVRIx2NgGAWjYGgCt/BMWRCmiXqw4tCMb+4hmd/dQzO9CakHqQGpBekhyhKQIqjh/4GafuCzBCQHVfMfbAnRvgjN8kBYkvnTPTTDjxw1ZFtCseH4DKKa4djCGUQjs4lJBCRbQnXD0ZMjscmXLhlwFIyCIQIApUx35d5wodEAAAAASUVORK5CYII=';

export const selectCss = `
.exp-select { appearance: none; -webkit-appearance: none; background-image: url("data:image/png;base64,${CHEVRON_PNG}"); background-repeat: no-repeat; background-position: right 10px center; background-size: 12px; }
`;
