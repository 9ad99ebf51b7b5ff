// The elements VideoWA's Set-of-Marks observation reads, in document order: those one can act on,
// and text holders whose parent is not one of them. Boxes are in page pixels (scroll added),
// elements without a box are left out. The array of elements is the result; `rows` (what Python
// reads by value) and the scroll offsets ride on it, so one evaluation gives both.
(() => {
  const actionable = [
    'a[href]:not(:has(img))', 'a[href] img', 'button', 'input:not([type="hidden"])', 'textarea', 'select',
    '[tabindex]:not([tabindex="-1"])', '[contenteditable="true"]', '[role="button"]', '[role="link"]',
    '[role="checkbox"]', '[role="menuitem"]', '[role="tab"]', '[draggable="true"]',
    '.btn', 'a[href="/notifications"]', 'a[href="/submit"]', '.fa.fa-star.is-rating-item', 'input[type="checkbox"]',
  ];
  const textHolders = ['p', 'span', 'div:not(:has(*))', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'article'];
  const outsideActionable = `:not(${actionable.join(', ')}):not(style)`;
  const selector = [...actionable, ...textHolders.map((tag) => `${outsideActionable} > ${tag}`)].join(', ');
  const ratio = window.devicePixelRatio;
  const elements = [];
  const rows = [];
  for (const element of document.querySelectorAll(selector)) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    elements.push(element);
    rows.push({
      tag: element.tagName,
      top: (box.top + window.scrollY) * ratio,
      right: (box.right + window.scrollX) * ratio,
      bottom: (box.bottom + window.scrollY) * ratio,
      left: (box.left + window.scrollX) * ratio,
      width: box.width * ratio,
      height: box.height * ratio,
      // The reference writes these into a quoted CSV, so it drops double quotes from them.
      alt: (element.getAttribute('alt') || '').replace(/"/g, ''),
      text: (element.textContent || '').replace(/"/g, ''),
      actionable: actionable.some((one) => element.matches(one)),
    });
  }
  elements.rows = rows;
  elements.scroll = [window.pageXOffset, window.pageYOffset];
  return elements;
})()
