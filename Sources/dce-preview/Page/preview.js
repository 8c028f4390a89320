// The form preview: renders the FormSession the server holds for this page and sends it every edit. Values typed
// live only in this page's memory and in POST bodies to the server; never in the URL, a cookie or web storage.
'use strict';
(() => {
  const config = JSON.parse(document.getElementById('config').textContent);
  const terms = config.terms;
  const form = document.getElementById('form');
  const problemsSection = document.getElementById('schema-problems');

  // The pickers: the URL holds the choices (schema, language, contexts, tender type), so a link shows the same form.
  for (const select of document.querySelectorAll('#choices select')) {
    select.addEventListener('change', () => {
      const params = new URLSearchParams();
      for (const other of document.querySelectorAll('#choices select')) {
        const keep = select.id !== 'pick-schema' || other === select || other.id === 'pick-language';
        if (other.value && keep) params.set(other.name, other.value);
      }
      location.search = params.toString();
    });
  }
  if (!form) return;  // the choices name no form: the page says why

  let session = null;
  let state = null;
  let signature = '';
  const values = new Map();  // path → text typed, in memory only
  const pending = new Map();  // path → edit not sent yet
  let timer = null;
  let queue = Promise.resolve();

  const fieldId = (path) => 'f' + path.replace(/[^A-Za-z0-9]/g, (c) => '_' + c.charCodeAt(0).toString(16));
  const byPath = (path) => form.querySelector(`[data-field="${CSS.escape(path)}"]`);
  const fields = () => state ? state.groups.flatMap((group) => group.fields) : [];

  async function post(url, body) {
    const response = await fetch(url, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
      cache: 'no-store', credentials: 'omit',
    });
    const answer = await response.json().catch(() => ({}));
    return {status: response.status, answer};
  }

  // Runs one exchange with the server after the ones before it, so that edits arrive in order.
  function serially(work) {
    queue = queue.then(work, work);
    return queue;
  }

  async function start() {
    const {status, answer} = await post('/api/session', config.choice);
    if (status !== 200) return showError(answer.error || String(status));
    session = answer.session;
    // A new session (the server restarted or forgot this page): it gets every value again.
    if (values.size) {
      const edits = [...values].map(([path, value]) => ({op: 'set', path, value}));
      const again = await post('/api/edit', {session, edits});
      if (again.status === 200) return show(again.answer);
    }
    show(answer);
  }

  function showError(message) {
    let alert = document.getElementById('choice-error');
    if (!alert) {
      alert = document.createElement('p');
      alert.id = 'choice-error';
      alert.className = 'error';
      alert.setAttribute('role', 'alert');
      form.before(alert);
    }
    alert.textContent = message;
  }

  // What the server answered: a state to render, or the schemas' problems.
  function show(answer) {
    if (answer.problems) {
      const list = problemsSection.querySelector('ul');
      list.replaceChildren(...answer.problems.map((problem) => {
        const item = document.createElement('li');
        item.dataset.file = problem.file;
        item.dataset.pointer = problem.pointer;
        const where = document.createElement('code');
        where.textContent = `${problem.file}:${problem.line ?? ''}:${problem.column ?? ''}`;
        const pointer = document.createElement('code');
        pointer.textContent = problem.pointer;
        item.append(where, ' ', pointer, ` [${problem.code}] ${problem.message}`);
        return item;
      }));
      problemsSection.hidden = false;
      form.hidden = true;
      return;
    }
    problemsSection.hidden = true;
    form.hidden = false;
    if (answer.state) render(answer.state);
  }

  function send() {
    timer = null;
    if (!pending.size) return queue;
    const edits = [...pending.values()];
    pending.clear();
    return serially(async () => {
      const {status, answer} = await post('/api/edit', {session, edits});
      if (status === 410) return start();
      if (status !== 200) return showError(answer.error || String(status));
      show(answer);
    });
  }

  function edit(op, path, value) {
    pending.set(op === 'set' || op === 'remove' ? 'value ' + path : op + ' ' + path + ' ' + pending.size,
      value === undefined ? {op, path} : {op, path, value});
  }

  function typed(path, value, now) {
    if (value === '') values.delete(path); else values.set(path, value);
    edit('set', path, value);
    if (timer) clearTimeout(timer);
    if (now) send(); else timer = setTimeout(send, 120);
  }

  // MARK: building the form

  const inputModes = {digits: 'numeric', cardNumber: 'numeric', securityCode: 'numeric', pin: 'numeric', expiry: 'numeric',
    amount: 'decimal', email: 'email', phone: 'tel'};

  function kind(field) {
    if (field.kind === 'group' || field.kind === 'list') return field.kind;
    if (field.choices) return 'choices:' + field.choices.join('|');
    if (field.options) return 'options:' + field.options.join('|');
    if (field.kind === 'toggle') return 'toggle';
    if (field.kind === 'country' || field.kind === 'currency') return field.kind;
    if (field.subdivisions && field.subdivisions.length) return 'subdivisions:' + field.subdivisions.map((s) => s.key).join('|');
    return field.secret ? 'secret' : 'text';
  }

  function render(next) {
    state = next;
    const shape = fields().map((field) => field.path + '=' + kind(field)).join('\n');
    if (shape !== signature) {
      signature = shape;
      build();
    }
    for (const field of fields()) update(field);
  }

  function build() {
    const active = document.activeElement && document.activeElement.closest('[data-field]');
    const focused = active ? active.dataset.field : null;
    const containers = new Map();
    form.replaceChildren();
    for (const group of state.groups) {
      let section = null;
      for (const field of group.fields) {
        const element = make(field);
        const parent = container(field.path, containers);
        if (parent) {
          parent.append(element);
        } else {
          if (!section) {
            section = document.createElement('section');
            section.className = 'group';
            if (group.dataGroup) section.dataset.group = group.dataGroup;
            const title = document.createElement('h2');
            title.textContent = group.title;
            section.append(title);
            form.append(section);
          }
          section.append(element);
        }
        if (field.kind === 'group') containers.set(field.path, element.querySelector('.members'));
        if (field.kind === 'list') containers.set(field.path, element.querySelector('.items'));
      }
    }
    for (const [path, value] of values) {
      const control = controlOf(path);
      if (control) control.value = value;
    }
    if (focused) {
      const control = controlOf(focused);
      if (control) control.focus();
    }
  }

  // Where a field goes: inside its object's fieldset, or its list item's (made on first use); else its group.
  function container(path, containers) {
    const tokens = path.split('/');
    tokens.pop();
    const parent = tokens.join('/');
    if (containers.has(parent)) return containers.get(parent);
    const index = tokens[tokens.length - 1];
    const list = tokens.slice(0, -1).join('/');
    if (!/^\d+$/.test(index) || !containers.has(list)) return null;
    const item = document.createElement('fieldset');
    item.className = 'item';
    item.dataset.item = parent;
    const legend = document.createElement('legend');
    legend.textContent = '#' + (Number(index) + 1);
    const members = document.createElement('div');
    members.className = 'members';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove-item';
    remove.textContent = terms['remove-item'];
    remove.addEventListener('click', () => removeItem(list, Number(index)));
    item.append(legend, members, remove);
    containers.get(list).append(item);
    containers.set(parent, members);
    return members;
  }

  function make(field) {
    const id = fieldId(field.path);
    if (field.kind === 'group' || field.kind === 'list') {
      const set = document.createElement('fieldset');
      set.className = 'field ' + field.kind;
      set.dataset.field = field.path;
      const legend = document.createElement('legend');
      legend.append(field.label, requiredMark());
      const inner = document.createElement('div');
      inner.className = field.kind === 'group' ? 'members' : 'items';
      set.append(legend, inner);
      if (field.kind === 'list') {
        const add = document.createElement('button');
        add.type = 'button';
        add.className = 'add-item';
        add.textContent = terms['add-item'];
        add.addEventListener('click', () => addItem(field.path));
        set.append(add);
      }
      set.append(messageElement(id));
      return set;
    }
    const wrapper = document.createElement('div');
    wrapper.className = 'field';
    wrapper.dataset.field = field.path;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.append(field.label, requiredMark());
    const control = controlFor(field, id);
    control.setAttribute('aria-describedby', 'm' + id);
    wrapper.append(label, control);
    if (field.brands) {
      const brand = document.createElement('span');
      brand.className = 'brand';
      brand.dataset.brand = '';
      brand.setAttribute('aria-live', 'polite');
      wrapper.append(brand);
    }
    if (field.masking) {
      wrapper.classList.add('masking');
      const masked = document.createElement('span');
      masked.className = 'masked';
      masked.dataset.masked = '';
      wrapper.append(masked);
    }
    const hints = [];
    if (field.minLength != null && field.maxLength != null) hints.push(`${field.minLength}–${field.maxLength}`);
    else if (field.maxLength != null) hints.push(`≤ ${field.maxLength}`);
    if (field.examples && field.examples.length) hints.push(field.examples.slice(0, 2).join(', '));
    if (field.help) hints.push(field.help);
    if (hints.length) {
      const hint = document.createElement('span');
      hint.className = 'hint';
      hint.textContent = hints.join(' · ');
      wrapper.append(hint);
    }
    wrapper.append(messageElement(id));
    return wrapper;
  }

  function requiredMark() {
    const mark = document.createElement('span');
    mark.className = 'required';
    mark.textContent = ' *';
    mark.title = terms.required;
    return mark;
  }

  function messageElement(id) {
    const message = document.createElement('div');
    message.className = 'message';
    message.id = 'm' + id;
    return message;
  }

  function option(value, text) {
    const element = document.createElement('option');
    element.value = value;
    element.textContent = text;
    return element;
  }

  function controlFor(field, id) {
    let control;
    const listed = field.choices || field.options;
    if (listed || field.kind === 'toggle' || field.kind === 'country' || field.kind === 'currency'
        || (field.subdivisions && field.subdivisions.length)) {
      control = document.createElement('select');
      control.append(option('', '—'));
      if (listed) for (const value of listed) control.append(option(value, value));
      else if (field.kind === 'toggle') control.append(option('true', 'true'), option('false', 'false'));
      else if (field.kind === 'country') for (const [code, name] of config.countries) control.append(option(code, `${code} · ${name}`));
      else if (field.kind === 'currency') for (const [code, name] of config.currencies) control.append(option(code, `${code} · ${name}`));
      else for (const subdivision of field.subdivisions) control.append(option(subdivision.key, subdivision.name ? `${subdivision.key} · ${subdivision.name}` : subdivision.key));
      control.addEventListener('change', () => typed(field.path, control.value, true));
    } else {
      control = document.createElement('input');
      // Secure entry as the model's masking policy says: a PIN, a security code.
      control.type = field.secret ? 'password' : 'text';
      control.inputMode = inputModes[field.kind] || 'text';
      // A card number's spaces and an expiry's slash are not counted against its length.
      if (field.maxLength != null && field.kind !== 'cardNumber' && field.kind !== 'expiry') control.maxLength = field.maxLength;
      if (field.placeholder) control.placeholder = field.placeholder;
      control.spellcheck = false;
      // Sent as typed, spaces and slashes too: the model keeps the canonical value.
      control.addEventListener('input', () => typed(field.path, control.value, false));
    }
    control.id = id;
    control.name = field.path;
    control.autocomplete = field.contentType && !field.secret ? field.contentType : 'off';
    control.addEventListener('focus', () => control.closest('[data-field]').classList.remove('blurred'));
    control.addEventListener('blur', () => control.closest('[data-field]').classList.add('blurred'));
    return control;
  }

  function controlOf(path) {
    const element = byPath(path);
    return element ? element.querySelector(':scope > input, :scope > select') : null;
  }

  // MARK: what each field is now

  function update(field) {
    const element = byPath(field.path);
    if (!element) return;
    element.dataset.state = field.state;
    element.dataset.required = String(field.required);
    element.dataset.forbidden = String(field.forbidden);
    element.dataset.ignored = String(field.ignored);
    const control = element.querySelector(':scope > input, :scope > select');
    const message = element.querySelector(':scope > .message');
    if (control) {
      control.setAttribute('aria-invalid', String(field.state === 'invalid'));
      control.setAttribute('aria-required', String(field.required));
      // A forbidden field is disabled while empty; one that holds a value stays editable, to be cleared.
      control.disabled = field.forbidden && !values.has(field.path);
    }
    let text = '';
    if (field.forbidden) text = field.forbiddenReason || '';
    else if (field.state === 'invalid') text = field.message || '';
    else if (field.ignored) text = terms.ignored;
    message.textContent = text;
    const brand = element.querySelector(':scope > [data-brand]');
    if (brand) {
      brand.dataset.brand = field.brand ? field.brand.id : '';
      brand.dataset.brands = (field.brands || []).join(' ');
      brand.textContent = field.brand
        ? config.brandPhrase.replace('{brand}', field.brand.name).replace('{code}', field.brand.securityCodeName)
          .replace('{count}', String(field.brand.securityCodeLength))
        : '';
    }
    const masked = element.querySelector(':scope > [data-masked]');
    if (masked) masked.textContent = field.masked || '';
  }

  // MARK: lists

  function addItem(list) {
    send();
    edit('add', list);
    send();
  }

  function removeItem(list, index) {
    send();
    // The values of the items after it move up one place, as the server's list does.
    const prefix = list + '/';
    const moved = new Map();
    for (const [path, value] of values) {
      if (!path.startsWith(prefix)) { moved.set(path, value); continue; }
      const rest = path.slice(prefix.length).split('/');
      const at = Number(rest[0]);
      if (at === index) continue;
      if (at > index) rest[0] = String(at - 1);
      moved.set(prefix + rest.join('/'), value);
    }
    values.clear();
    for (const [path, value] of moved) values.set(path, value);
    signature = '';
    edit('remove', `${list}/${index}`);
    send();
  }

  // MARK: the buttons

  document.getElementById('validate').addEventListener('click', async () => {
    await send();
    await queue;
    const list = document.getElementById('violations');
    document.getElementById('violations-title').hidden = false;
    if (!state.violations.length) {
      const item = document.createElement('li');
      item.className = 'valid';
      item.textContent = terms.valid;
      list.replaceChildren(item);
      return;
    }
    list.replaceChildren(...state.violations.map((violation) => {
      const item = document.createElement('li');
      item.dataset.path = violation.path;
      item.dataset.rule = violation.rule;
      const link = document.createElement('a');
      link.href = '#' + fieldId(violation.path);
      link.textContent = `${violation.path || '/'} — ${violation.message}`;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        focusField(violation.path);
      });
      item.append(link);
      return item;
    }));
  });

  function focusField(path) {
    let target = path;
    while (target) {
      const element = byPath(target);
      if (element) {
        const control = element.querySelector('input:not([disabled]), select:not([disabled])');
        if (control) { control.focus(); return; }
        element.scrollIntoView();
        return;
      }
      target = target.slice(0, target.lastIndexOf('/'));
    }
  }

  document.getElementById('show-request').addEventListener('click', async () => {
    await send();
    await serially(async () => {
      const {status, answer} = await post('/api/request', {session});
      if (status !== 200) return;
      const pre = document.getElementById('request');
      pre.textContent = answer.request;
      pre.hidden = false;
      document.getElementById('request-title').hidden = false;
    });
  });

  document.getElementById('save-example').addEventListener('click', async () => {
    await send();
    await serially(async () => {
      const {status, answer} = await post('/api/example', {session});
      if (status !== 200) return;
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([answer.example], {type: 'application/json'}));
      link.download = answer.file;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
  });

  // MARK: --watch

  if (config.watching) {
    const events = new EventSource('/events');
    events.addEventListener('schemas', () => {
      serially(async () => {
        const {status, answer} = await post('/api/state', {session});
        if (status === 410) return start();
        signature = '';
        show(answer);
      });
    });
  }

  start();
})();
