// How much the PostgreSQL store sends in one statement, and so how large a record it can hold.
//
// Appends travel to the server as one JSON document of records (postgres-append-batcher.ts): a
// record's line is JSON already and is escaped once more inside it, and its search text rides
// beside it, so the document can be about three times the size of the lines it carries (a line of
// nothing but quotes: each `"` of the text is `\"` in the line and `\\\"` in the document, and `\"`
// in the search text). That document is one JavaScript string, which V8 caps at about 512 Mi
// characters (a longer one is a bare RangeError), and one parameter, which PostgreSQL caps at 1 GB.

/**
 * The largest `maxRecordBytes` the PostgreSQL store accepts, and the most one append (all its
 * records together) may carry: 128 MiB, whose document (at most ~384 Mi characters) stays under
 * V8's string limit and PostgreSQL's 1 GB parameter limit.
 */
export const POSTGRES_MAX_RECORD_BYTES = 128 * 1024 * 1024;

/**
 * The most the appends of several sessions sent in one statement carry together: 64 MiB of
 * records. The appends made at the same moment beyond it go in the next statement; one append
 * larger than this goes alone.
 */
export const POSTGRES_MAX_GROUP_BYTES = 64 * 1024 * 1024;
