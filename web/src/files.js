// Own model files: drop or pick safetensors shards (with their index and
// config.json), a GGUF file, or the model's folder. Only the headers are read,
// in the page, by the module's inspectFiles(); nothing is uploaded. What was
// read is shown, and its model reference (config.json + the checkpoint's exact
// bytes, and for GGUF its file type) becomes the scenario's model.

import { h, replace } from './dom.js';

/** Which dropped files the reader takes: the rest of a model folder (tokenizer,
 *  generation_config.json, README, ...) is listed as skipped. */
export function modelFileKind(name) {
  const n = String(name).toLowerCase().replace(/^.*\//, '');
  if (n.endsWith('.safetensors')) return 'shard';
  if (n.endsWith('.safetensors.index.json')) return 'index';
  if (n.endsWith('.gguf')) return 'gguf';
  if (n === 'config.json') return 'config';
  if (n === 'model_index.json') return 'pipeline';
  return '';
}

/** A file as the reader sees it: named with its folder inside the drop or the
 *  picked folder ("FLUX.1-dev/transformer/diffusion_pytorch_model.safetensors"),
 *  so a pipeline's components are told apart. */
export function asModelFile(file, path) {
  const name = String(path || file.webkitRelativePath || file.name).replace(/^\/+/, '');
  return { name, size: file.size, slice: (a, b) => file.slice(a, b) };
}

/** Every file of a drop, folders walked (webkitGetAsEntry), at most `limit`. */
export async function droppedFiles(dataTransfer, limit = 4096) {
  const out = [];
  const items = dataTransfer.items ? [...dataTransfer.items] : [];
  const entries = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (!entries.some(Boolean)) return [...(dataTransfer.files || [])].slice(0, limit).map((f) => asModelFile(f));
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  const readBatch = (reader) => new Promise((resolve, reject) => reader.readEntries(resolve, reject));
  async function walk(entry, depth) {
    if (!entry || out.length >= limit) return;
    if (entry.isFile) {
      out.push(asModelFile(await fileOf(entry), entry.fullPath));
    } else if (entry.isDirectory && depth < 4) {
      const reader = entry.createReader();
      for (let batch = await readBatch(reader); batch.length && out.length < limit; batch = await readBatch(reader)) {
        for (const e of batch) await walk(e, depth + 1);
      }
    }
  }
  for (const e of entries) await walk(e, 0);
  return out;
}

export class FilesMethods {
  /** The "Model files" source: a drop zone, file and folder pickers, what was read. */
  _filesBlock() {
    const pick = h('input', { type: 'file', multiple: true, hidden: true, 'data-testid': 'files-input',
      accept: '.safetensors,.gguf,.json', 'aria-label': this._t('files.files') });
    const folder = h('input', { type: 'file', multiple: true, hidden: true, webkitdirectory: true,
      'data-testid': 'folder-input', 'aria-label': this._t('files.folder') });
    pick.addEventListener('change', () => { this._readFiles([...pick.files].map((f) => asModelFile(f))); pick.value = ''; });
    folder.addEventListener('change', () => { this._readFiles([...folder.files].map((f) => asModelFile(f))); folder.value = ''; });
    const zone = h('div', { class: 'vb-drop', 'data-testid': 'files-drop' },
      h('p', {}, this._marked('files.drop', h('code', {}, 'config.json'))),
      h('p', { class: 'vb-drop-buttons' }, pick, folder,
        h('button', { type: 'button', class: 'vb-apply', onclick: () => pick.click() }, this._t('files.choose-files')),
        h('button', { type: 'button', class: 'vb-apply', onclick: () => folder.click() }, this._t('files.choose-folder'))),
      h('p', { class: 'vb-help' }, this._t('files.local')));
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('vb-drop-over'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('vb-drop-over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('vb-drop-over');
      droppedFiles(e.dataTransfer).then((files) => this._readFiles(files), (err) => this._showFilesError('files.as-is', err.message));
    });
    this._filesSummary = h('div', { class: 'vb-files-summary', 'data-testid': 'files-summary', 'aria-live': 'polite' });
    this._filesError = h('p', { class: 'vb-field-error', role: 'alert', 'data-testid': 'files-error', hidden: true });
    return h('div', { class: 'vb-field', 'data-field': 'files' }, zone, this._filesError, this._filesSummary);
  }

  /** The files' error from a table string (said again in another language). */
  _showFilesError(key, ...args) {
    this._filesErrorSaid = [key, ...args];
    this._filesError.textContent = this._t(key, ...args);
    this._filesError.hidden = false;
  }

  /** Reads the headers of `files`, shows what they hold and estimates with them. */
  async _readFiles(files) {
    this._filesSeq = (this._filesSeq || 0) + 1;
    const seq = this._filesSeq;
    const taken = files.filter((f) => modelFileKind(f.name));
    const skipped = files.filter((f) => !modelFileKind(f.name)).map((f) => f.name);
    this._filesError.hidden = true;
    this._filesErrorSaid = null;
    if (!taken.length) {
      replace(this._filesSummary);
      if (files.length) this._showFilesError('files.none-model', `${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', \u2026' : ''}`);
      else this._showFilesError('files.none-given');
      return;
    }
    replace(this._filesSummary, h('p', { class: 'vb-loading', role: 'status' }, this._t('files.reading', taken.length)));
    let result;
    try {
      result = await this._module.inspectFiles(taken);
    } catch (e) {
      result = { ok: false, error: { path: '', i18n: ['error.call', 'inspectFiles', e.message] } };
    }
    if (seq !== this._filesSeq) return; // a newer drop replaced this one
    this._inspection = result;
    this._inspectionSkipped = skipped;
    if (!result.ok) {
      replace(this._filesSummary);
      // The module's message as it gives it; the page's own in the reader's language.
      const err = result.error;
      if (err.i18n) this._showFilesError(...err.i18n);
      else this._showFilesError('files.as-is', `${err.path ? `${err.path}: ` : ''}${err.message}`);
      return;
    }
    this._renderInspection(result, skipped);
    if (result.format === 'diffusers') return; // a pipeline is estimated by its id: its components are shown
    const model = result.model || {};
    const changes = { src: 'files', config: model.config ? JSON.stringify(model.config, null, 2) : '',
      wbytes: model.weights_bytes !== undefined ? String(model.weights_bytes) : '',
      fileParams: model.config ? undefined : model.params };
    if (result.weights) changes.weights = result.weights;
    this._setState(changes);
  }

  /** Format, files and bytes read, tensors, bytes by dtype, architecture, notes. */
  _renderInspection(r, skipped) {
    const arch = r.architecture || {};
    const tensors = (n, bytes) => this._t('files.tensors', this._num(n), this._exact(bytes), this._bytes(bytes).text);
    const rows = [
      [this._t('files.format'), r.format + (r.gguf_version ? this._t('files.version', r.gguf_version) : '') + (r.weights ? `, ${r.weights}` : '')],
      [this._t('files.tensors-row'), tensors(r.tensors, r.tensor_bytes)],
      [this._t('files.by-dtype'), Object.entries(r.by_dtype || {}).map(([d, b]) => `${d} ${this._bytes(b).text}`).join(', ')],
    ];
    const archText = [arch.gguf_architecture, arch.blocks !== undefined ? this._t('files.blocks', this._num(arch.blocks)) : '',
      arch.tied_embeddings !== undefined ? this._t(arch.tied_embeddings ? 'files.tied' : 'files.untied') : '',
      arch.quantized_layout || ''].filter(Boolean).join(', ');
    if (archText) rows.push([this._t('files.architecture'), archText]);
    if (r.format === 'diffusers') {
      rows.splice(0, 1, [this._t('files.format'), this._t('files.pipeline', r.pipeline_class || '')]);
      for (const c of r.components || []) {
        rows.push([c.component, `${tensors(c.tensors, c.tensor_bytes)} (${Object.keys(c.by_dtype || {}).join(', ')})`]);
      }
    } else {
      rows.push([this._t('files.model'), r.model && r.model.config ? this._t('files.config-found')
        : r.model && r.model.params ? this._t('files.weights-only', this._num(r.model.params))
          : this._t('files.no-config')]);
    }
    const table = h('table', { class: 'vb-files-table' },
      h('caption', {}, this._t('files.read')),
      h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v)))));
    const fileList = h('ul', { class: 'vb-files-list', 'data-testid': 'files-list' },
      (r.files || []).map((f) => h('li', {}, this._t('files.file-read', f.name, this._exact(f.bytes_read), this._bytes(f.file_size).text))));
    const notes = [...(r.notes || []), ...(skipped.length ? [this._t('files.skipped', skipped.join(', '))] : [])];
    replace(this._filesSummary, table, fileList,
      notes.length ? h('ul', { class: 'vb-notes' }, notes.map((n) => h('li', {}, n))) : null);
  }
}
