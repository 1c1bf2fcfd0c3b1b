#!/usr/bin/env node
// The command line, bundled by scripts/bundle-cli.mjs (the same code as dist/cli/main.js, in fewer files).
import { main } from '../dist/cli-bundle/main.js';

await main();
