// `vram-budget inspect` on a 140 GB-shaped checkpoint: four sparse shards whose
// headers describe Llama-3.1-70B-sized tensors. Only the headers are read (the
// report says how many bytes of each file), and the model reference it prints
// is a scenario's model as is.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const cli = path.join(__dirname, '..', '..', 'build', 'native', 'vram-budget');
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', timeout: 20000 });

const { writeSafetensors } = require('../browser/fixtures/model-files.cjs');

/** A safetensors shard of `tensors` ([name, dtype bytes, dtype, shape]) as a sparse file; header bytes without the 8-byte length. */
function writeShard(file, tensors) {
  const r = writeSafetensors(file, tensors.map(([name, bytes, dtype, shape]) => [name, dtype, bytes, shape]));
  return { headerBytes: r.headerBytes - 8, dataBytes: r.dataBytes };
}

test('a 140 GB checkpoint in four shards is inspected from its headers alone', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-inspect-'));
  try {
    // 80 layers of Llama-3.1-70B in BF16, 20 per shard; embeddings and head in the first and last.
    const layer = (l) => [
      [`model.layers.${l}.self_attn.q_proj.weight`, 2, 'BF16', [8192, 8192]],
      [`model.layers.${l}.self_attn.k_proj.weight`, 2, 'BF16', [1024, 8192]],
      [`model.layers.${l}.self_attn.v_proj.weight`, 2, 'BF16', [1024, 8192]],
      [`model.layers.${l}.self_attn.o_proj.weight`, 2, 'BF16', [8192, 8192]],
      [`model.layers.${l}.mlp.gate_proj.weight`, 2, 'BF16', [28672, 8192]],
      [`model.layers.${l}.mlp.up_proj.weight`, 2, 'BF16', [28672, 8192]],
      [`model.layers.${l}.mlp.down_proj.weight`, 2, 'BF16', [8192, 28672]],
      [`model.layers.${l}.input_layernorm.weight`, 2, 'BF16', [8192]],
      [`model.layers.${l}.post_attention_layernorm.weight`, 2, 'BF16', [8192]],
    ];
    const files = [];
    let total = 0;
    const index = { metadata: {}, weight_map: {} };
    for (let s = 0; s < 4; s++) {
      const tensors = [];
      if (s === 0) tensors.push(['model.embed_tokens.weight', 2, 'BF16', [128256, 8192]]);
      for (let l = s * 20; l < (s + 1) * 20; l++) tensors.push(...layer(l));
      if (s === 3) tensors.push(['model.norm.weight', 2, 'BF16', [8192]], ['lm_head.weight', 2, 'BF16', [128256, 8192]]);
      const name = `model-0000${s + 1}-of-00004.safetensors`;
      const shard = writeShard(path.join(dir, name), tensors);
      for (const [t] of tensors) index.weight_map[t] = name;
      files.push({ name, ...shard });
      total += shard.dataBytes;
    }
    index.metadata.total_size = total;
    fs.writeFileSync(path.join(dir, 'model.safetensors.index.json'), JSON.stringify(index));
    const args = ['inspect', '--json', path.join(dir, 'model.safetensors.index.json'),
      ...files.map((f) => path.join(dir, f.name))];
    const r = run(args);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.tensor_bytes, 141107412992);  // Llama-3.1-70B's published total_size
    assert.equal(out.tensor_bytes, total);
    for (const f of files) {
      const got = out.files.find((x) => x.name === f.name);
      assert.equal(got.bytes_read, 8 + f.headerBytes, `${f.name} read beyond its header`);
      assert.equal(got.file_size, 8 + f.headerBytes + f.dataBytes);
    }
    assert.equal(out.architecture.blocks, 80);
    assert.equal(out.architecture.tied_embeddings, false);
    // A missing shard is an error naming it.
    const missing = run(['inspect', path.join(dir, 'model.safetensors.index.json'), path.join(dir, files[0].name)]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /model-0000[234]-of-00004\.safetensors", which was not given/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('inspect refuses hostile files with exit 2 and the file named', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-inspect-'));
  try {
    const cases = [
      ['short.safetensors', Buffer.from('abc'), /8-byte header length/],
      ['huge.safetensors', Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 0, 0, 0x80]), Buffer.from('{}')]), /header length/],
      ['v1.gguf', Buffer.concat([Buffer.from('GGUF'), Buffer.from([1, 0, 0, 0]), Buffer.alloc(16)]), /GGUF version 1/],
    ];
    for (const [name, bytes, re] of cases) {
      fs.writeFileSync(path.join(dir, name), bytes);
      const r = run(['inspect', path.join(dir, name)]);
      assert.equal(r.status, 2, name);
      assert.match(r.stderr, re, name);
      assert.match(r.stderr, new RegExp(name.replace('.', '\\.')));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the wasm module inspects File objects from the ranges it asks for', async () => {
  const mod = await require(path.join(__dirname, '..', '..', 'web', 'vram-budget.js'))();
  const header = Buffer.from(JSON.stringify({
    'model.embed_tokens.weight': { dtype: 'BF16', shape: [4, 2], data_offsets: [0, 16] },
    'model.layers.0.mlp.up_proj.weight': { dtype: 'F8_E4M3', shape: [2, 2], data_offsets: [16, 20] },
  }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  const bytes = Buffer.concat([len, header, Buffer.alloc(20)]);
  const reads = [];
  const file = {
    name: 'model.safetensors', size: bytes.length,
    slice: (a, b) => { reads.push(b - a); return new Blob([bytes.subarray(a, b)]); },
  };
  const r = await mod.inspectFiles([file]);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(reads, [8, 8 + header.length]);  // the length, then the header with it: never the data
  assert.equal(r.tensor_bytes, 20);
  assert.deepEqual(r.by_dtype, { BF16: 16, F8_E4M3: 4 });
  assert.equal(r.architecture.blocks, 1);
  // Hostile entries answer errors, never throw.
  const bad = [
    [[], /at least one model file/],
    ['x', /an array/],
    [[{ name: 'a.safetensors', size: -1, prefix: new Uint8Array(0) }], /whole number of bytes/],
    [[{ name: 'a.safetensors', size: 4, prefix: new Uint8Array(8) }], /at most min\(size/],
    [[{ name: 'a.safetensors', size: 100, prefix: 'text' }], /Uint8Array/],
    [[{ name: 'a.gguf', size: 24, prefix: new Uint8Array([71, 71, 85, 70, 1, 0, 0, 0, ...new Array(16).fill(0)]) }], /GGUF version 1/],
  ];
  for (const [arg, re] of bad) {
    const out = JSON.parse(mod.inspect(arg));
    assert.equal(out.ok, false, JSON.stringify(arg));
    assert.match(out.error.message, re);
  }
  assert.equal(JSON.parse(mod.estimate('{"model":"Qwen/Qwen3-8B"}')).ok, true);  // the module still answers
});

test('inspect lists a diffusers pipeline folder by component', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-inspect-'));
  try {
    fs.mkdirSync(path.join(dir, 'transformer'));
    fs.mkdirSync(path.join(dir, 'vae'));
    fs.writeFileSync(path.join(dir, 'model_index.json'), JSON.stringify({ _class_name: 'FluxPipeline',
      transformer: ['diffusers', 'FluxTransformer2DModel'], vae: ['diffusers', 'AutoencoderKL'] }));
    const t = writeShard(path.join(dir, 'transformer', 'diffusion_pytorch_model.safetensors'),
      [['transformer_blocks.0.attn.to_q.weight', 2, 'BF16', [3072, 3072]]]);
    const v = writeShard(path.join(dir, 'vae', 'diffusion_pytorch_model.safetensors'),
      [['decoder.conv_in.weight', 4, 'F32', [512, 16, 3, 3]]]);
    const r = run(['inspect', '--json', path.join(dir, 'model_index.json'),
      path.join(dir, 'transformer', 'diffusion_pytorch_model.safetensors'),
      path.join(dir, 'vae', 'diffusion_pytorch_model.safetensors')]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.format, 'diffusers');
    assert.equal(out.pipeline_class, 'FluxPipeline');
    assert.deepEqual(out.components.map((c) => [c.component, c.tensor_bytes]),
      [['transformer', t.dataBytes], ['vae', v.dataBytes]]);
    assert.equal(out.tensor_bytes, t.dataBytes + v.dataBytes);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('readConfig: a config.json as Python writes it, Infinity and NaN as null; anything else answered, never thrown', async () => {
  const mod = await require(path.join(__dirname, '..', '..', 'web', 'vram-budget.js'))();
  const r = JSON.parse(mod.readConfig('{"model_type": "mamba2", "time_step_limit": [0.0, Infinity], "x": NaN}'));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.config.time_step_limit, [0, null]);
  assert.equal(r.config.x, null);
  assert.match(r.notes[0], /^config\.json: 2 values that Python's json writes as Infinity or NaN/);
  assert.deepEqual(JSON.parse(mod.readConfig('{"a": 1}')), { ok: true, config: { a: 1 }, notes: [] });
  for (const [arg, re] of [['{"a": Infinityx}', /malformed JSON/], ['[1]', /one JSON object/], [null, /a string/],
    [42, /a string/], ['{"a": "\ud800"}', /lone UTF-16 surrogate/]]) {
    const out = JSON.parse(mod.readConfig(arg));
    assert.equal(out.ok, false, String(arg));
    assert.match(out.error.message, re);
  }
  assert.equal(JSON.parse(mod.estimate('{"model":"Qwen/Qwen3-8B"}')).ok, true);
});
