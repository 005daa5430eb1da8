#!/usr/bin/env node
/**
 * `vega-watcher`, as published: the command (`main.ts`) under a bounded V8 heap (see
 * `internal/heapCap.ts`).
 */
import { relaunchedWithCap } from "./internal/heapCap.js"

if (!(await relaunchedWithCap())) await import("./main.js")
