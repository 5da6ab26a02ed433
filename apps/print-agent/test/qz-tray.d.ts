// qz-tray ships no types; the tests use a handful of its calls.
declare module 'qz-tray' {
  const qz: any;
  export default qz;
}
