/** The console's stylesheet (served as /assets/console.css; no build step). */
export const CONSOLE_CSS = `
:root { --fg: #1d2330; --muted: #5d6677; --line: #dde1e8; --bg: #f6f7f9; --card: #fff;
  --ok: #17803d; --warn: #a15c00; --bad: #b42318; --run: #1d5fd1; --idle: #6b7280; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: var(--bg); }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: #1d2330;
  color: #fff; }
header.top .brand { font-weight: 700; font-size: 16px; letter-spacing: .02em; }
header.top nav a { color: #cfd6e4; text-decoration: none; margin-right: 16px; }
header.top nav a.here, header.top nav a:hover { color: #fff; text-decoration: underline; }
header.top .who { margin-left: auto; color: #cfd6e4; display: flex; gap: 12px; align-items: center; }
header.top .who button { background: none; border: 1px solid #5d6677; color: #fff; }
main { padding: 20px 24px 48px; max-width: 1280px; }
h1 { font-size: 20px; margin: 4px 0 16px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
a { color: var(--run); }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 14px 16px;
  margin-bottom: 16px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
.grid .card { margin: 0; }
.card h3 { margin: 0 0 6px; font-size: 15px; }
table { border-collapse: collapse; width: 100%; background: var(--card); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #f0f2f5; padding: 10px; border-radius: 4px; overflow: auto; max-height: 360px; margin: 0; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
  color: #fff; background: var(--idle); white-space: nowrap; }
.badge.succeeded { background: var(--ok); }
.badge.partial, .badge.cancelling, .badge.stale { background: var(--warn); }
.badge.failed, .badge.guard_stopped, .badge.dead, .badge.blocked { background: var(--bad); }
.badge.running { background: var(--run); }
.badge.skipped, .badge.cancelled, .badge.never { background: var(--idle); }
.badge.paused { background: #7c3aed; }
.notice { padding: 10px 14px; border-radius: 6px; margin-bottom: 16px; border: 1px solid; }
.notice.bad { background: #fdecea; border-color: #f5c2bd; color: #7a1a11; }
.notice.warn { background: #fff4e0; border-color: #f3d49b; color: #6b3d00; }
.notice.ok { background: #e7f6ec; border-color: #b5e1c2; color: #0f5229; }
button, .button { font: inherit; padding: 5px 12px; border-radius: 4px; border: 1px solid #9aa3b2;
  background: #fff; color: var(--fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.primary { background: var(--run); border-color: var(--run); color: #fff; }
button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
button:disabled { opacity: .5; cursor: not-allowed; }
input[type=text], input[type=password], input[type=search], select, textarea { font: inherit;
  padding: 5px 8px; border: 1px solid #9aa3b2; border-radius: 4px; background: #fff; }
textarea { width: 100%; min-height: 180px; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
form.inline { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-bottom: 12px; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; }
.chart { min-height: 200px; }
.result { margin-top: 8px; }
.flash:empty { display: none; }
.flash { margin: 12px 24px 0; max-width: 1232px; }
.login { max-width: 380px; margin: 80px auto; }
.login input { width: 100%; margin: 6px 0 12px; }
.bar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.counts span { margin-right: 14px; }
/* Reasons and file paths wrap anywhere (a path at least a short name wide); keys and ids never break. */
.reason, td.wrap, td.path { white-space: normal; overflow-wrap: anywhere; }
td.path { min-width: 24ch; }
td a[href^="/runs/"], td a[href^="/dead-letters/"] { white-space: nowrap; }
`;
