/** The types of check-imports.mjs, for its test. */
export declare function checkImports(root: string): { status: 0 | 1; lines: string[] };
