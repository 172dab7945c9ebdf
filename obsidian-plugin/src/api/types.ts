// The daemon's request and response bodies, generated from docs/openapi.json into ./generated
// (`npm run gen:types`; never edit that file). The plugin imports them from here, together with
// the few names it derives from them.
import type { ListMemoriesQuery } from "./generated";

export type * from "./generated";

/** Which memories GET /api/v1/memories lists. */
export type ListStatus = NonNullable<ListMemoriesQuery["status"]>;
/** The order GET /api/v1/memories lists them in. */
export type ListSort = NonNullable<ListMemoriesQuery["sort"]>;
