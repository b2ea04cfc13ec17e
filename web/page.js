// The standalone page's own text (index.html) in the language the calculator
// shows: each [data-i18n] element takes its string from the element's tables
// (web/src/i18n/en.js, nl.js; keys page.*), [data-i18n-label] its aria-label.
// "{0}", "{1}" ... in a string stand for the element's own child elements
// (a link, <code>, <sup>), kept as they are. The page's lang follows.
(function () {
  'use strict';
  var kids = new WeakMap();

  function apply(lang) {
    var VB = window.VramBudgetElement;
    if (!VB || typeof VB.translator !== 'function') return;
    var tr = VB.translator(lang);
    document.documentElement.lang = tr.lang;
    document.querySelectorAll('[data-i18n]').forEach(function (el) {
      if (!kids.has(el)) kids.set(el, Array.prototype.slice.call(el.children));
      var own = kids.get(el);
      var nodes = [];
      String(tr.t(el.getAttribute('data-i18n'))).split(/\{(\d)\}/).forEach(function (part, i) {
        if (i % 2) { if (own[Number(part)]) nodes.push(own[Number(part)]); } else if (part) nodes.push(document.createTextNode(part));
      });
      el.replaceChildren.apply(el, nodes);
    });
    document.querySelectorAll('[data-i18n-label]').forEach(function (el) {
      el.setAttribute('aria-label', tr.t(el.getAttribute('data-i18n-label')));
    });
  }

  document.addEventListener('language-change', function (e) {
    if (e.target === document.querySelector('vram-budget')) apply(e.detail.lang);
  });
  var first = document.querySelector('vram-budget');
  if (first && first.language) apply(first.language);
})();
