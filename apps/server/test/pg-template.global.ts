/**
 * The PostgreSQL run's seeded template (CI time): every test file's harness wants a database
 * migrated and seeded with the demo data, which took 1.5–2 s a file on PostgreSQL (migrations
 * 0.6–1.3 s, the seed 0.7 s) on a 2-core machine, 126 times a run. Made once here, each file's
 * database is `create database … template` of it: the same rows, sequences and indexes. Nothing
 * happens on SQLite (a file per test file, migrated in ~0.1 s).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/seed/demo.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded template's name and the UTC day it was seeded ('' on SQLite). */
    pgTemplate: { name: string; day: string };
  }
}

export default async function setup(project: TestProject) {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    project.provide('pgTemplate', { name: '', day: '' });
    return;
  }
  const name = `tpl_${randomUUID().replaceAll('-', '')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  const day = new Date().toISOString().slice(0, 10);
  const db = createDatabase(testConfig({ DATABASE_URL: u.toString() }).database);
  try {
    await migrateToLatest(db);
    await seedDemo(db, { orders: 60 });
  } finally {
    // A template takes no connections while it is copied.
    await db.destroy();
  }
  project.provide('pgTemplate', { name, day });
  return () => admin(`drop database if exists ${name} with (force)`);
}
