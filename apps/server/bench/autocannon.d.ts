/** autocannon ships no types; the load generator uses a small part of it. */
declare module 'autocannon';
