// The student page of Attention Lab's class poll: shows the teacher's current question, sends
// a tap as this device's answer, follows the next question by Server-Sent Events.
// Everything shown is set with textContent: no text from the server is ever parsed as HTML.
// A class is noisy: the room code is checked when the student joins, a poll the teacher ended
// greys the choices until it comes back (the page reconnects by itself), and a tap that could
// not go out waits and goes when the connection is back, or the page says it was not counted.
"use strict";

(function () {
  const DEVICE = "attnlab.poll.device";
  const ROOM = "attnlab.poll.room";
  const MINE = "attnlab.poll.mine";
  const KEEP_MINE = 40;
  const LETTERS = "ABCDEFGHIJKLMNOP";
  const RETRY_MS = 3000;
  const memory = {};
  let question = null;
  let strings = {};
  let pending = null;
  let waiting = null; // a tap not sent yet: { session, scene, choice }
  let note = "";
  let offline = false;
  let fresh = false; // the stream was (re)opened: its first question is the poll's own now
  let checked = false; // the stored room code was accepted by this poll
  let checking = false;
  let waitTimer = 0;

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

  function ended() {
    return Boolean(question && question.ended);
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
    button.disabled = Boolean(question.frozen) || ended() || pending !== null;
    button.addEventListener("click", () => answer(index));
    return button;
  }

  function render() {
    if (question) {
      const code = String(question.lang || "").replace("_", "-");
      if (/^[a-z]{2,3}(-[A-Za-z]{2})?$/.test(code)) document.documentElement.lang = code;
      document.title = text("title") || document.title;
    }
    byId("brand").textContent = text("brand");
    const code = room();
    const join = byId("join");
    const ask = byId("ask");
    join.hidden = code !== null || !question;
    byId("room-label").textContent = text("room_label");
    byId("join-button").textContent = text("join");
    byId("join-note").textContent = join.hidden ? "" : note;
    if (!join.hidden && checking) byId("join-note").textContent = text("checking");
    byId("join-button").disabled = checking;
    const asking = Boolean(question && question.scene && Array.isArray(question.choices));
    ask.hidden = !asking || code === null;
    ask.classList.toggle("ended", ended());
    let status = "";
    if (ended()) status = text("ended");
    else if (offline) status = waiting !== null ? text("queued") : text("offline");
    if (question && !asking) status = status || text("waiting");
    if (asking && code !== null) {
      byId("prompt").textContent = question.prompt;
      const chosen = waiting !== null && waiting.scene === question.scene
        ? waiting.choice : myChoice();
      byId("choices").replaceChildren(
        ...question.choices.map((label, index) => choiceButton(String(label), index, chosen)));
      if (!status) {
        if (question.frozen) {
          status = note || (chosen === null ? text("frozen_none") : text("frozen"));
        }
        else if (pending !== null) status = text("sending");
        else if (waiting !== null) status = text("queued");
        else status = note || (chosen === null ? text("tap") : text("sent"));
      }
    }
    byId("status").textContent = status;
    byId("status").classList.toggle(
      "alert", ended() || offline || waiting !== null || (note !== "" && asking));
  }

  function apply(next, fromStream) {
    if (!next || typeof next !== "object" || typeof next.strings !== "object") return;
    const restarted = fromStream && fresh;
    if (fromStream) fresh = false;
    if (!restarted && question && next.session === question.session && next.rev < question.rev) {
      return;
    }
    if (!question || next.scene !== question.scene) note = "";
    question = next;
    strings = next.strings;
    settleWaiting();
    render();
  }

  // The tap that waited for the connection: sent if its question still takes answers, or
  // the student is told it was not counted.
  function settleWaiting() {
    if (waiting === null || !question || ended() || offline || room() === null) return;
    const tap = waiting;
    if (tap.session !== question.session || tap.scene !== question.scene) {
      waiting = null;
      note = text("dropped_changed");
    } else if (question.frozen) {
      waiting = null;
      note = text("dropped_frozen");
    } else if (pending === null) {
      waiting = null;
      answer(tap.choice);
    }
  }

  async function refresh() {
    try {
      const reply = await fetch("/question", { cache: "no-store" });
      if (reply.ok) apply(await reply.json());
    } catch (_error) {
      // the event stream reconnects by itself and brings the question
    }
  }

  function wait(index) {
    waiting = { session: question.session, scene: question.scene, choice: index };
    window.clearTimeout(waitTimer);
    waitTimer = window.setTimeout(settleWaiting, RETRY_MS);
  }

  async function answer(index) {
    if (!question || question.frozen || ended() || pending !== null) return;
    note = "";
    if (offline || room() === null) {
      wait(index); // sent when the connection (or the room code) is back
      render();
      return;
    }
    waiting = null;
    pending = index;
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
    else if (status === 0) wait(index);
    else if (status === 403) {
      save(ROOM, null); // asked again, with the reason; the tap goes once the code is right
      checked = false;
      note = text("room_wrong");
      wait(index);
    } else if (status === 409) {
      note = text("changed");
      await refresh();
    } else if (status === 429) note = text("too_fast");
    else if (status === 503) note = text("full");
    else note = text("error");
    render();
  }

  // Asks the poll whether `code` is its room code: "ok", "wrong", "busy" or "unreachable".
  async function checkRoom(code) {
    try {
      const reply = await fetch("/join", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ room: code }),
        cache: "no-store",
      });
      if (reply.status === 200) return "ok";
      if (reply.status === 403) return "wrong";
      return reply.status === 429 ? "busy" : "unreachable";
    } catch (_error) {
      return "unreachable";
    }
  }

  const REFUSED = { wrong: "room_wrong", busy: "too_fast", unreachable: "join_offline" };

  async function join() {
    const box = byId("room");
    const code = box.value.trim();
    if (!/^[0-9]{4}$/.test(code)) {
      note = text("room_format");
      render();
      return;
    }
    checking = true;
    render();
    const verdict = await checkRoom(code);
    checking = false;
    if (verdict === "ok") {
      save(ROOM, code);
      checked = true;
      note = "";
    } else {
      note = text(REFUSED[verdict]);
    }
    render();
    if (verdict === "ok") settleWaiting();
    else box.select(); // the student types the code again over the wrong one
  }

  // A code from the address or an earlier visit is checked once the poll can be reached;
  // a wrong one (a code from another lesson) brings the join form back with the reason.
  async function checkStoredRoom() {
    const code = room();
    if (code === null || checked || checking) return;
    checking = true;
    const verdict = await checkRoom(code);
    checking = false;
    if (verdict === "ok" && room() === code) checked = true;
    else if (verdict === "wrong" && room() === code) {
      save(ROOM, null);
      note = text("room_wrong");
    }
    render();
    settleWaiting();
  }

  function listen() {
    const events = new EventSource("/events");
    events.addEventListener("question", (event) => {
      offline = false;
      try {
        apply(JSON.parse(event.data), true);
      } catch (_error) {
        // a broken event is dropped; the next one carries the whole question again
      }
    });
    events.addEventListener("open", () => {
      offline = false;
      fresh = true;
      render();
      checkStoredRoom();
    });
    events.addEventListener("error", () => {
      offline = true;
      render();
      if (events.readyState === EventSource.CLOSED) { // refused, not dropped: try again
        events.close();
        window.setTimeout(listen, RETRY_MS);
      }
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
      checked = false;
      render();
      checkStoredRoom();
    });
    listen();
  });
})();
