import pg from 'pg';

// PostgreSQL answers int8 (counts, sums) as strings and timestamptz as Date by
// default; SQLite gives numbers and ISO text. Make both engines look the same
// (imported by every thread that reads PostgreSQL: the server and the workbook worker).
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());

export { pg };
