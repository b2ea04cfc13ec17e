#!/usr/bin/env node
// Lists the functions of core/ longer than a limit (default 60 lines, from the
// signature's line to the closing brace). The sources follow one layout
// (clang-format, Google style): a function body opens with "{" at the end of a
// line that starts at column 0 and closes with "}" alone at column 0.
// Usage: node scripts/function-lengths.cjs [LIMIT] → exit 1 if any is longer.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const limit = Number(process.argv[2] || 60);
const root = path.join(__dirname, '..', 'core');

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(cpp|hpp)$/.test(e.name) ? [p] : [];
  });
}

function longFunctions(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out = [];
  let start = -1;
  let pending = -1;  // a column-0 signature line whose parameters wrap onto the next lines
  for (let i = 0; i < lines.length; ++i) {
    const line = lines[i];
    if (start < 0) {
      const head = /^[A-Za-z]/.test(line) && !/^(namespace|struct|class|enum|union|extern|using|template)\b/.test(line);
      if (head && /\)\s*(const\s*)?(noexcept\s*)?(->\s*[\w:<>]+\s*)?\{\s*$/.test(line)) {
        start = i;
        pending = -1;
        continue;
      }
      if (head && line.includes('(') && !/[;{}]\s*$/.test(line)) {
        pending = i;
        continue;
      }
      if (pending >= 0 && /^\s+\S/.test(line)) {
        if (/\{\s*$/.test(line)) {
          start = pending;
          pending = -1;
        } else if (/;\s*$/.test(line)) {
          pending = -1;
        }
        continue;
      }
      pending = -1;
      continue;
    }
    if (start >= 0 && /^\}\s*$/.test(line)) {
      const n = i - start + 1;
      if (n > limit) out.push({ file: path.relative(path.join(root, '..'), file), line: start + 1, lines: n, name: lines[start].trim() });
      start = -1;
    }
  }
  return out;
}

const found = sources(root).flatMap(longFunctions).sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${f.file}:${f.line}: ${f.lines} lines: ${f.name.slice(0, 90)}`);
console.log(`${found.length} function(s) over ${limit} lines in core/`);
process.exit(found.length ? 1 : 0);
