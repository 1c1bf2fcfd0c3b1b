/** The longest request target served, in characters (the client's longest is about 1,200); longer ones get 414. */
export const MAX_URL_LENGTH = 8192;
