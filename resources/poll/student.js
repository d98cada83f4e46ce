// The student page of Attention Lab's class poll: shows the teacher's current question, sends
// a tap as this device's answer, follows the next question by Server-Sent Events.
// Everything shown is set with textContent: no text from the server is ever parsed as HTML.
"use strict";

(function () {
  const DEVICE = "attnlab.poll.device";
  const ROOM = "attnlab.poll.room";
  const MINE = "attnlab.poll.mine";
  const KEEP_MINE = 40;
  const LETTERS = "ABCDEFGHIJKLMNOP";
  const memory = {};
  let question = null;
  let strings = {};
  let pending = null;
  let note = "";
  let offline = false;

  const byId = (id) => document.getElementById(id);

  function load(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (_error) {
      return key in memory ? memory[key] : null; // private mode: keep it for this visit
    }
  }

  function save(key, value) {
    memory[key] = value;
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch (_error) {
      // storage refused: the in-memory copy serves this visit
    }
  }

  function device() {
    let token = load(DEVICE);
    if (!token || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) {
      const bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      token = btoa(String.fromCharCode.apply(null, bytes))
        .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      save(DEVICE, token);
    }
    return token;
  }

  function room() {
    const code = load(ROOM);
    return code && /^[0-9]{4}$/.test(code) ? code : null;
  }

  function roomFromAddress() {
    const code = window.location.hash.replace(/^#/, "");
    if (/^[0-9]{4}$/.test(code)) save(ROOM, code);
  }

  function mine() {
    try {
      const kept = JSON.parse(load(MINE) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (_error) {
      return [];
    }
  }

  function key() {
    return question ? question.session + "/" + question.scene : "";
  }

  function myChoice() {
    const found = mine().find((entry) => Array.isArray(entry) && entry[0] === key());
    return found && Number.isInteger(found[1]) ? found[1] : null;
  }

  function remember(choice) {
    const kept = mine().filter((entry) => Array.isArray(entry) && entry[0] !== key());
    kept.push([key(), choice]);
    save(MINE, JSON.stringify(kept.slice(-KEEP_MINE)));
  }

  function text(name) {
    return typeof strings[name] === "string" ? strings[name] : "";
  }

  function choiceButton(label, index, chosen) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.index = String(index);
    const letter = document.createElement("span");
    letter.className = "letter";
    letter.textContent = LETTERS.charAt(index);
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = label;
    button.append(letter, words);
    const marks = [];
    if (question.frozen && question.right === index) {
      button.classList.add("right");
      marks.push(text("right"));
    }
    if (chosen === index) {
      button.classList.add("mine");
      if (question.frozen) marks.push(text("mine"));
    }
    if (marks.length) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = marks.join(" · ");
      words.append(badge);
    }
    button.setAttribute("aria-pressed", chosen === index ? "true" : "false");
    button.disabled = Boolean(question.frozen) || pending !== null;
    button.addEventListener("click", () => answer(index));
    return button;
  }

  function render() {
    if (question) {
      const code = String(question.lang || "").replace("_", "-");
      if (/^[a-z]{2,3}(-[A-Za-z]{2})?$/.test(code)) document.documentElement.lang = code;
      document.title = text("title") || document.title;
    }
    const code = room();
    const join = byId("join");
    const ask = byId("ask");
    join.hidden = code !== null || !question;
    byId("room-label").textContent = text("room_label");
    byId("join-button").textContent = text("join");
    byId("join-note").textContent = join.hidden ? "" : note;
    const asking = Boolean(question && question.scene && Array.isArray(question.choices));
    ask.hidden = !asking || code === null;
    let status = offline ? text("offline") : "";
    if (question && !asking) status = status || text("waiting");
    if (asking && code !== null) {
      byId("prompt").textContent = question.prompt;
      const chosen = myChoice();
      byId("choices").replaceChildren(
        ...question.choices.map((label, index) => choiceButton(String(label), index, chosen)));
      if (!status) {
        if (question.frozen) status = chosen === null ? text("frozen_none") : text("frozen");
        else if (pending !== null) status = text("sending");
        else status = note || (chosen === null ? text("tap") : text("sent"));
      }
    }
    byId("status").textContent = status;
    byId("status").classList.toggle("alert", offline || (note !== "" && asking));
  }

  function apply(next) {
    if (!next || typeof next !== "object" || typeof next.strings !== "object") return;
    if (question && next.session === question.session && next.rev < question.rev) return;
    if (!question || next.scene !== question.scene) note = "";
    question = next;
    strings = next.strings;
    render();
  }

  async function refresh() {
    try {
      const reply = await fetch("/question", { cache: "no-store" });
      if (reply.ok) apply(await reply.json());
    } catch (_error) {
      // the event stream reconnects by itself and brings the question
    }
  }

  async function answer(index) {
    if (!question || question.frozen || pending !== null || room() === null) return;
    pending = index;
    note = "";
    render();
    const body = { room: room(), scene: question.scene, choice: index, device: device() };
    let status = 0;
    try {
      const reply = await fetch("/answer", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        cache: "no-store",
      });
      status = reply.status;
    } catch (_error) {
      status = 0;
    }
    pending = null;
    if (status === 200) remember(index);
    else if (status === 403) {
      save(ROOM, null);
      note = text("room_wrong");
    } else if (status === 409) {
      note = text("changed");
      await refresh();
    } else if (status === 429) note = text("too_fast");
    else if (status === 503) note = text("full");
    else note = text("error");
    render();
  }

  function join() {
    const code = byId("room").value.trim();
    if (!/^[0-9]{4}$/.test(code)) {
      note = text("room_format");
    } else {
      save(ROOM, code);
      note = "";
    }
    render();
  }

  function listen() {
    const events = new EventSource("/events");
    events.addEventListener("question", (event) => {
      offline = false;
      try {
        apply(JSON.parse(event.data));
      } catch (_error) {
        // a broken event is dropped; the next one carries the whole question again
      }
    });
    events.addEventListener("open", () => {
      offline = false;
      render();
    });
    events.addEventListener("error", () => {
      offline = true;
      render();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    roomFromAddress();
    byId("join-button").addEventListener("click", join);
    byId("room").addEventListener("keydown", (event) => {
      if (event.key === "Enter") join();
    });
    window.addEventListener("hashchange", () => {
      roomFromAddress();
      render();
    });
    listen();
  });
})();
