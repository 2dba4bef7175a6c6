/** packages/web/scripts/build-if-stale.mjs: builds the web app when its build is missing or stale. */
export declare const webRoot: string
export declare const appOutput: string
export declare const isFresh: () => boolean
export declare const buildIfStale: () => Promise<number>
