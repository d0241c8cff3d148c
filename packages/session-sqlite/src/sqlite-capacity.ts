// How large a record the SQLite store can hold, so `maxRecordBytes` cannot promise more.

/**
 * The largest `maxRecordBytes` the SQLite store accepts: 512 MiB. SQLite bounds a whole row, not
 * only one value, by SQLITE_MAX_LENGTH (https://www.sqlite.org/limits.html), which better-sqlite3
 * compiles at its default of 1,000,000,000 bytes; half of it leaves the rest of the row (the
 * record's outline, the keys) room. And a record of one byte a character beyond ~512 Mi characters
 * cannot even be a JavaScript string (V8's limit), so a larger limit would promise what no append reaches.
 */
export const SQLITE_MAX_RECORD_BYTES = 512 * 1024 * 1024;
