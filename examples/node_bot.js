// A cardnet bot in Node.js using only its standard library (net, crypto, readline); docs/PROTOCOL.md is its spec.
//
//   node examples/node_bot.js HOST:PORT [--games N] [--name NAME]
//
// It takes a seat, answers every decision with a random legal move (by index), answers pings, votes for a
// rematch until it has played N games, and prints one JSON line per finished game. The table password, if any,
// comes from CARDNET_PASSWORD.
"use strict";

const net = require("net");
const crypto = require("crypto");
const readline = require("readline");

function parseArgs(argv) {
  const args = { games: 1, name: "nodebot", target: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--games") args.games = parseInt(argv[++i], 10);
    else if (argv[i] === "--name") args.name = argv[++i];
    else args.target = argv[i];
  }
  if (!args.target || !args.target.includes(":")) {
    console.error("usage: node node_bot.js HOST:PORT [--games N] [--name NAME]");
    process.exit(2);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const colon = args.target.lastIndexOf(":");
const socket = net.createConnection({ host: args.target.slice(0, colon), port: Number(args.target.slice(colon + 1)) });
const send = (message) => socket.write(JSON.stringify(message) + "\n");
const answered = new Set();
const finished = new Set();
let seat = null;
let stage = "table";

readline.createInterface({ input: socket, crlfDelay: Infinity }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (stage === "table") {
    const hello = { type: "hello", protocol: 1, name: args.name, role: "player", capabilities: ["index_moves", "rematch"], client: "node_bot/1" };
    if (msg.password) {
      const text = `cardnet-auth/1|${msg.table_id}|${msg.challenge}`;
      hello.auth = crypto.createHmac("sha256", process.env.CARDNET_PASSWORD || "").update(text).digest("hex");
    }
    send(hello);
    stage = "welcome";
    return;
  }
  if (stage === "welcome") {
    if (msg.type !== "welcome") {
      console.error(`refused: ${msg.code}: ${msg.reason}`);
      process.exit(1);
    }
    seat = msg.seat;
    stage = "play";
    return;
  }
  switch (msg.type) {
    case "ping":
      send({ type: "pong", id: msg.id });
      break;
    case "error":
      // A stale decision is harmless: another answer got there first.
      if (msg.code !== "stale_decision") console.error(`host error: ${msg.code}: ${msg.reason}`);
      if (msg.fatal) process.exit(1);
      break;
    case "update":
    case "snapshot": {
      if (msg.over) {
        if (!finished.has(msg.game_no)) {
          finished.add(msg.game_no);
          console.log(JSON.stringify({ game_no: msg.game_no, outcome: msg.outcome, seat }));
          if (finished.size >= args.games) {
            socket.end();
            process.exit(0);
          }
          send({ type: "rematch" });
        }
        break;
      }
      const decision = msg.decision;
      if (!decision) break;
      if (msg.type === "snapshot") answered.delete(decision.id);
      if (answered.has(decision.id)) break;
      answered.add(decision.id);
      send({ type: "move", decision_id: decision.id, index: Math.floor(Math.random() * decision.count) });
      break;
    }
    default:
      break; // seats, chat, rematch progress: nothing to do
  }
});

socket.on("close", () => {
  console.error("the host closed the connection");
  process.exit(1);
});
socket.on("error", (err) => {
  console.error(`connection error: ${err.message}`);
  process.exit(1);
});
