import { installDomHelpers } from "./dom";

if (typeof window !== "undefined") installDomHelpers(window);
