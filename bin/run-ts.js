#!/usr/bin/env node
// Runs one TypeScript file (benchmarks, scripts) through tsx's require hook.
require('tsx/cjs');
const path = require('node:path');
require(path.resolve(process.argv[2]));
