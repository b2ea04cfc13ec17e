// The module's public functions. Each accepts any arguments and hands exactly
// the expected number to the C++ side, which checks their types and answers
// every mistake with {"ok": false, "error": {...}}: a call with a missing
// argument, a number or null returns an error text instead of throwing.
//
// One check cannot be made in C++: a JavaScript string with a lone UTF-16
// surrogate has no UTF-8 form (the copy into the module would merge or mangle
// it), so such text is refused here, before it is copied.
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
var vramLoneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function vramWellFormed(text) {
  return typeof text.isWellFormed === 'function' ? text.isWellFormed() : !vramLoneSurrogate.test(text);
}
function vramText(fn, scenario, call) {
  return vramRefused(fn, scenario) || call();
}
// The refusal of such text, or null.
function vramRefused(fn, text) {
  if (typeof text === 'string' && !vramWellFormed(text)) {
    return JSON.stringify({ ok: false, error: { path: '', message: fn + '() was given text with a lone UTF-16 surrogate, which has no UTF-8 form' } });
  }
  return null;
}
// The one call made thousands of times (sweeps, the bench): no closure per call.
Module['estimate'] = function (scenario) {
  return vramRefused('estimate', scenario) || Module['vramEstimate'](scenario);
};
// A pasted log's figures beside the scenario's estimate; both texts are checked.
Module['reconcile'] = function (log, scenario) {
  return vramText('reconcile', log, function () {
    return vramText('reconcile', scenario, function () { return Module['vramReconcile'](log, scenario); });
  });
};
Module['plan'] = function (scenario) {
  return vramText('plan', scenario, function () { return Module['vramPlan'](scenario); });
};
Module['sweep'] = function (scenario) {
  return vramText('sweep', scenario, function () { return Module['vramSweep'](scenario); });
};
Module['grid'] = function (scenario, nContexts, nConcurrency) {
  return vramText('grid', scenario, function () { return Module['vramGrid'](scenario, nContexts, nConcurrency); });
};
// `catalog({ models: false })` leaves the model list out (and reads no model
// file) and lists the pipelines without their components (reading no
// component's configuration); `models()` gives the list later, for a page that
// shows an estimate first.
Module['catalog'] = function (options) {
  return Module['vramCatalog'](!(options && typeof options === 'object' && options.models === false));
};
Module['models'] = function () { return Module['vramModels'](); };
// Model files read from their headers: `inspect(list)` answers
// {ok, need: [{name, bytes}]} until every prefix is long enough, then the
// inspection. `inspectFiles(files)` runs that loop over File or Blob objects
// (each with a name), reading only the ranges asked for.
Module['inspect'] = function (list) { return Module['vramInspect'](list); };
// A pasted config.json read as the core reads one: Python's Infinity and NaN
// (not JSON) as null, said in the notes.
Module['readConfig'] = function (text) {
  return vramText('readConfig', text, function () { return Module['vramReadConfig'](text); });
};
Module['inspectFiles'] = async function (files) {
  var list = Array.prototype.map.call(files, function (f) {
    return { name: String(f.name), size: f.size, prefix: new Uint8Array(0) };
  });
  for (var round = 0; round < 64; round++) {
    var r = JSON.parse(Module['vramInspect'](list));
    if (!r.ok || !r.need) return r;
    for (var i = 0; i < r.need.length; i++) {
      for (var k = 0; k < list.length; k++) {
        if (list[k].name !== r.need[i].name) continue;
        list[k].prefix = new Uint8Array(await files[k].slice(0, r.need[i].bytes).arrayBuffer());
      }
    }
  }
  return { ok: false, error: { path: '', message: 'the files needed more than 64 reads' } };
};
