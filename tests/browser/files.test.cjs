// Own model files in the page: picked or dropped safetensors shards with their
// config.json, a GGUF file, and hostile files. Only headers are read (the page
// shows how many bytes of each file), nothing leaves the page, and what was
// read becomes the scenario's model.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { WAIT, launch, newContext, openPage, scenarioWhen } = require('./helpers.cjs');
const files = require('./fixtures/model-files.cjs');
const { hostileFiles, missingShardIndex } = require('./fixtures/hostile-files.cjs');

let browser;
let context;
let dir;

before(async () => {
  browser = await launch();
  context = await newContext(browser);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-files-'));
});

after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const group = (n) => Number(n).toLocaleString('en-US');

test('safetensors with config.json: the headers are read, and the estimate uses their exact bytes', async () => {
  const shard = files.writeSafetensors(path.join(dir, 'model.safetensors'), files.tinySafetensorsTensors());
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(files.tinyConfig()));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), '{"version": "1.0"}');
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  await page.getByTestId('files-input').setInputFiles(['config.json', 'model.safetensors', 'tokenizer.json']
    .map((f) => path.join(dir, f)));
  const summary = page.getByTestId('files-summary');
  await summary.getByText('Read from the files').waitFor(WAIT);
  const text = await summary.textContent();
  assert.match(text, /safetensors/);
  assert.match(text, new RegExp(`21 tensors, ${group(shard.dataBytes)} B`));
  assert.match(text, /BF16 /);
  assert.match(text, /2 blocks/);
  assert.match(text, /config\.json found/);
  // Only the header of the shard was read: its 8-byte length and JSON.
  assert.match(await page.getByTestId('files-list').textContent(), new RegExp(`model\\.safetensors: ${group(shard.headerBytes)} B read`));
  assert.match(text, /skipped \(not model files\): tokenizer\.json/);
  const sc = await scenarioWhen(page, (s) => s.model && s.model.weights_bytes !== undefined);
  assert.equal(sc.model.weights_bytes, shard.dataBytes);
  assert.equal(sc.model.config.hidden_size, 256);
  await page.waitForFunction(() => document.querySelector('vram-budget').report?.ok === true, null, WAIT);
  const report = await page.evaluate(() => document.querySelector('vram-budget').report);
  const weights = report.components.find((c) => c.id === 'weights');
  assert.match(weights.formula, new RegExp(`checkpoint ${group(shard.dataBytes)} B`));
  // The link holds what was read (as a pasted config.json and its bytes), not the files.
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  assert.equal(hash.get('src'), 'config');
  assert.equal(hash.get('wbytes'), String(shard.dataBytes));
  await page.close();
});

test('a GGUF file: its file type becomes the weights format and its architecture the config', async () => {
  const gguf = files.writeTinyGguf(path.join(dir, 'tiny-Q4_K_M.gguf'));
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  await page.getByTestId('files-input').setInputFiles(path.join(dir, 'tiny-Q4_K_M.gguf'));
  const summary = page.getByTestId('files-summary');
  await summary.getByText('Read from the files').waitFor(WAIT);
  const text = await summary.textContent();
  assert.match(text, /gguf \(version 3\), gguf:Q4_K_M/);
  assert.match(text, new RegExp(`${group(gguf.dataBytes)} B`));
  assert.match(text, /Q4_K .*Q6_K|Q6_K .*Q4_K/);
  const sc = await scenarioWhen(page, (s) => s.weights === 'gguf:Q4_K_M');
  assert.equal(sc.model.weights_bytes, gguf.dataBytes);
  assert.equal(sc.model.config.model_type, 'llama');
  assert.equal(sc.model.config.num_hidden_layers, 2);
  await page.close();
});

test('every hostile file is refused with the file and the reason, and the page goes on', async () => {
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  for (const [name, bytes, want] of hostileFiles()) {
    fs.writeFileSync(path.join(dir, name), bytes);
    await page.getByTestId('files-input').setInputFiles(path.join(dir, name));
    await page.waitForFunction((n) => $vb('[data-testid=files-error]') && !$vb('[data-testid=files-error]').hidden
      && $vb('[data-testid=files-error]').textContent.includes(n), name, WAIT);
    assert.match(await page.getByTestId('files-error').textContent(), want, name);
  }
  // An index naming a shard that was not given.
  const shards = missingShardIndex().map(([n, b]) => { fs.writeFileSync(path.join(dir, n), b); return path.join(dir, n); });
  await page.getByTestId('files-input').setInputFiles(shards);
  await page.waitForFunction(() => $vb('[data-testid=files-error]').textContent.includes('which was not given'), null, WAIT);
  // Files that are not model files at all.
  fs.writeFileSync(path.join(dir, 'README.md'), '# a model card');
  await page.getByTestId('files-input').setInputFiles(path.join(dir, 'README.md'));
  await page.waitForFunction(() => $vb('[data-testid=files-error]').textContent.includes('none of these is a model file'), null, WAIT);
  // The module still answers: a valid file after the hostile ones is read.
  const gguf = files.writeTinyGguf(path.join(dir, 'ok.gguf'));
  await page.getByTestId('files-input').setInputFiles(path.join(dir, 'ok.gguf'));
  await page.getByTestId('files-summary').getByText('Read from the files').waitFor(WAIT);
  assert.equal(await page.getByTestId('files-error').isHidden(), true);
  const sc = await scenarioWhen(page, (s) => s.model && s.model.weights_bytes !== undefined);
  assert.equal(sc.model.weights_bytes, gguf.dataBytes);
  assert.deepEqual(context.pageErrors, []);
  // Nothing left the page: every request is to the page's own files.
  assert.deepEqual(context.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:')), []);
  await page.close();
});

test('a model folder through the folder picker, and files dropped on the zone', async () => {
  const folder = path.join(dir, 'tiny-llama');
  fs.mkdirSync(folder, { recursive: true });
  const shard = files.writeSafetensors(path.join(folder, 'model.safetensors'), files.tinySafetensorsTensors());
  fs.writeFileSync(path.join(folder, 'config.json'), JSON.stringify(files.tinyConfig()));
  fs.writeFileSync(path.join(folder, 'generation_config.json'), '{"do_sample": true}');
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  await page.getByTestId('folder-input').setInputFiles(folder);
  await page.getByTestId('files-summary').getByText('Read from the files').waitFor(WAIT);
  assert.match(await page.getByTestId('files-summary').textContent(), /skipped \(not model files\): (tiny-llama\/)?generation_config\.json/);
  let sc = await scenarioWhen(page, (s) => s.model && s.model.weights_bytes !== undefined);
  assert.equal(sc.model.weights_bytes, shard.dataBytes);

  // A drop: the GGUF file's bytes handed to the zone as a DataTransfer.
  const gguf = files.writeTinyGguf(path.join(dir, 'drop.gguf'));
  const bytes = [...fs.readFileSync(path.join(dir, 'drop.gguf'))];
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], 'drop.gguf'));
    const zone = $vb('[data-testid=files-drop]');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  sc = await scenarioWhen(page, (s) => s.weights === 'gguf:Q4_K_M');
  assert.equal(sc.model.weights_bytes, gguf.dataBytes);
  await page.close();
});

test('a diffusers pipeline folder: each component is read on its own and listed', async () => {
  const root = path.join(dir, 'FLUX.1-tiny');
  const put = (rel, bytes) => { fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true }); fs.writeFileSync(path.join(root, rel), bytes); };
  put('model_index.json', JSON.stringify({ _class_name: 'FluxPipeline', transformer: ['diffusers', 'FluxTransformer2DModel'],
    vae: ['diffusers', 'AutoencoderKL'], text_encoder_2: ['transformers', 'T5EncoderModel'],
    scheduler: ['diffusers', 'FlowMatchEulerDiscreteScheduler'] }));
  put('transformer/config.json', '{"_class_name": "FluxTransformer2DModel"}');
  put('scheduler/scheduler_config.json', '{"shift": 3.0}');
  const t = files.writeSafetensors(path.join(dir, 't.safetensors'),
    [['transformer_blocks.0.attn.to_q.weight', 'BF16', 2, [64, 64]]]);
  const v = files.writeSafetensors(path.join(dir, 'v.safetensors'), [['decoder.conv_in.weight', 'F32', 4, [16, 16]]]);
  put('transformer/diffusion_pytorch_model.safetensors', fs.readFileSync(path.join(dir, 't.safetensors')));
  put('vae/diffusion_pytorch_model.safetensors', fs.readFileSync(path.join(dir, 'v.safetensors')));
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  await page.getByTestId('folder-input').setInputFiles(root);
  const summary = page.getByTestId('files-summary');
  await summary.getByText('Read from the files').waitFor(WAIT);
  const text = await summary.textContent();
  assert.match(text, /diffusers pipeline \(FluxPipeline\)/);
  assert.match(text, new RegExp(`transformer1 tensors, ${group(t.dataBytes)} B`));
  assert.match(text, new RegExp(`vae1 tensors, ${group(v.dataBytes)} B`));
  assert.match(text, /text_encoder_2, whose files were not given/);
  assert.equal(await page.getByTestId('files-error').isHidden(), true);
  await page.close();
});

test('shards without their config.json: the weights alone, from the shapes and the exact bytes', async () => {
  const shard = files.writeSafetensors(path.join(dir, 'alone.safetensors'), files.tinySafetensorsTensors());
  const page = await openPage(context);
  await page.getByTestId('source-files').check();
  await page.getByTestId('files-input').setInputFiles(path.join(dir, 'alone.safetensors'));
  await page.getByTestId('files-summary').getByText('Read from the files').waitFor(WAIT);
  assert.match(await page.getByTestId('files-summary').textContent(), /the weights alone are estimated/);
  const sc = await scenarioWhen(page, (s) => s.model && s.model.params !== undefined && s.model.weights_bytes !== undefined);
  assert.equal(sc.model.weights_bytes, shard.dataBytes);
  assert.equal(sc.model.params, shard.dataBytes / 2);  // BF16: two bytes a parameter
  await page.close();
});
