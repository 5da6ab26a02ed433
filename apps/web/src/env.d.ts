/// <reference types="vite/client" />
/** Product version from the root package.json (cookie keys are prefixed with it). */
declare const __APP_VERSION__: string;
