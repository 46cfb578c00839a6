#!/usr/bin/env node
// The `klaxon` command. Runs the TypeScript sources through tsx's require hook, so a fresh
// clone needs no build step.
require('tsx/cjs');
require('../src/cli/main.ts').main(process.argv);
