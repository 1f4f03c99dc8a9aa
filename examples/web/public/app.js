'use strict';
// The page is a view: it renders what the todo app's view models say (streamed by the server as
// Server-Sent Events) and sends each user action as a command. It decides nothing itself but which
// todos its own URL shows (#/, #/active, #/completed) and the text of a todo being edited.
(() => {
  const $ = (selector) => document.querySelector(selector);
  const model = { items: [], properties: {}, connected: false };
  let editing = null; // {id, text} while a todo is edited in this tab

  function command(action, fields = {}) {
    return fetch('/api', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action, ...fields }) });
  }

  const events = new EventSource('/events');
  events.addEventListener('state', (e) => {
    const state = JSON.parse(e.data);
    model.items = state.items;
    model.properties = state.properties;
    model.connected = true;
    render();
  });
  events.addEventListener('property', (e) => {
    const { name, value } = JSON.parse(e.data);
    model.properties[name] = value;
    render();
  });
  events.addEventListener('splice', (e) => {
    const { index, removed, items } = JSON.parse(e.data);
    model.items.splice(index, removed, ...items);
    render();
  });
  events.addEventListener('item', (e) => {
    const { id, name, value } = JSON.parse(e.data);
    const item = model.items.find((i) => i.id === id);
    if (item) item[name] = value;
    render();
  });

  function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    return hash === 'active' || hash === 'completed' ? hash : 'all';
  }

  function renderItem(item) {
    const li = document.createElement('li');
    li.dataset.id = item.id;
    if (item.completed) li.classList.add('completed');
    const view = document.createElement('div');
    view.className = 'view';
    const toggle = document.createElement('input');
    toggle.className = 'toggle';
    toggle.type = 'checkbox';
    toggle.checked = item.completed;
    toggle.addEventListener('change', () => command('toggle', { id: item.id, completed: toggle.checked }));
    const label = document.createElement('label');
    label.textContent = item.title;
    label.addEventListener('dblclick', () => {
      editing = { id: item.id, text: item.title };
      render();
    });
    const destroy = document.createElement('button');
    destroy.className = 'destroy';
    destroy.addEventListener('click', () => command('destroy', { id: item.id }));
    view.append(toggle, label, destroy);
    li.append(view);
    if (editing && editing.id === item.id) {
      li.classList.add('editing');
      const edit = document.createElement('input');
      edit.className = 'edit';
      edit.value = editing.text;
      edit.addEventListener('input', () => { editing.text = edit.value; });
      edit.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') finishEdit(true);
        else if (e.key === 'Escape') finishEdit(false);
      });
      edit.addEventListener('blur', () => finishEdit(true));
      li.append(edit);
    }
    return li;
  }

  function finishEdit(save) {
    if (!editing) return;
    const { id, text } = editing;
    editing = null;
    if (save) command('edit', { id, title: text });
    render();
  }

  function render() {
    const p = model.properties;
    const filter = route();
    const shown = model.items.filter((i) => filter === 'all' || (filter === 'active') === !i.completed);
    // A todo being edited keeps its input (and focus) while the rest follows the view models.
    const list = $('.todo-list');
    const editingInput = list.querySelector('li.editing .edit');
    if (!(editing && editingInput && document.activeElement === editingInput && shown.some((i) => i.id === editing.id))) {
      // An item's element is kept while it shows the same thing (keyed by id), so a change
      // re-renders only what changed.
      const kept = new Map([...list.children].map((li) => [li.dataset.key, li]));
      list.replaceChildren(...shown.map((item) => {
        const key = JSON.stringify([item.id, item.title, item.completed, Boolean(editing && editing.id === item.id)]);
        const li = kept.get(key) || renderItem(item);
        li.dataset.key = key;
        return li;
      }));
      const edit = list.querySelector('li.editing .edit');
      if (edit) { edit.focus(); edit.setSelectionRange(edit.value.length, edit.value.length); }
    }
    $('.main').hidden = !p.hasTodos;
    $('.footer').hidden = !p.hasTodos;
    $('.toggle-all').checked = Boolean(p.allCompleted);
    const count = String(p.itemsLeft || '');
    const match = /^(\d+)(.*)$/.exec(count);
    const strong = document.createElement('strong');
    strong.textContent = match ? match[1] : '';
    $('.todo-count').replaceChildren(strong, document.createTextNode(match ? match[2] : count));
    $('.clear-completed').hidden = !p.isClearCompletedVisible;
    for (const a of document.querySelectorAll('.filters a')) {
      a.classList.toggle('selected', a.getAttribute('href') === `#/${filter === 'all' ? '' : filter}`);
    }
    document.body.dataset.ready = model.connected ? 'yes' : 'no';
  }

  $('.new-todo').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const input = e.target;
    command('add', { title: input.value }); // the view model trims it, and ignores an empty one
    input.value = '';
  });
  $('.toggle-all').addEventListener('change', (e) => command('toggle_all', { completed: e.target.checked }));
  $('.clear-completed').addEventListener('click', () => command('clear_completed'));
  window.addEventListener('hashchange', render);
  render();
})();
