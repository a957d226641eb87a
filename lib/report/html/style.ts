/** The report's stylesheet: screen, and print (no toolbar, every group open, no page breaks inside a row). */
export const STYLE = `
:root{--fail:#b42318;--failbg:#fde0e0;--warn:#7a5200;--warnbg:#fff1c9;--ok:#0b5a1c;--okbg:#d7f5dd;--grey:#3a414b;--greybg:#e8eaee;--dev:#3b1f8f;--devbg:#e4ddff;--line:#e3e6ea}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:14px 24px}header h1{margin:0 0 4px;font-size:19px}header .meta{color:#c9cdd3;font-size:13px}
main{padding:12px 24px 40px;max-width:1320px}
h2{font-size:17px;margin:22px 0 8px}h3{font-size:15px;margin:14px 0 6px}
a{color:#0b57d0}a:target,.hit{outline:3px solid #f5b400;outline-offset:1px}
.b{display:inline-block;padding:1px 6px;border-radius:3px;font-size:12px;font-weight:600;white-space:nowrap}
.verdict{font-size:18px;padding:4px 12px;margin-right:8px}
.FAIL,.NON_CONFORMANT,.ERROR{background:var(--failbg);color:var(--fail)}
.PASS,.CONFORMANT,.ATTESTED{background:var(--okbg);color:var(--ok)}
.WARNING,.INCOMPLETE,.INTERRUPTED,.NOT_EVALUATED,.FLAKY{background:var(--warnbg);color:var(--warn)}
.NOT_TESTABLE,.SKIPPED,.NOT_COVERED,.OUT_OF_SCOPE,.MANUAL{background:var(--greybg);color:var(--grey)}
.KNOWN_DEVIATION{background:var(--devbg);color:var(--dev)}
.box{background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 14px;margin:10px 0}
.box.bad{border-left:5px solid var(--fail)}
.verdict.tone-conformant{background:#2e9e4f;color:#fff}.verdict.tone-passed-what-ran{background:#1f6fb2;color:#fff}.verdict.tone-failed{background:#d92d20;color:#fff}.verdict.tone-stopped{background:#4a2a7a;color:#fff}
.verdict-box{border-left:5px solid #1f6fb2}.verdict-box.tone-conformant{border-left-color:#2e9e4f}.verdict-box.tone-failed{border-left-color:#d92d20}.verdict-box.tone-stopped{border-left-color:#4a2a7a}
.top{display:flex;flex-wrap:wrap;gap:0 14px;align-items:flex-start}.top>.verdict-box{flex:1 1 380px}.top>.areas{flex:0 1 auto;overflow-x:auto}.areas svg{display:block;max-width:100%;height:auto}
details.box>summary{margin:2px 0}.box.dev{border-left:5px solid var(--dev)}.box.att{border-left:5px solid var(--ok)}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:#eef0f3;font-weight:600}
td.id{white-space:nowrap;font:12px ui-monospace,monospace;width:1%}td.lv{width:1%;font-size:12px;color:#555}td.st{width:1%}td a{white-space:nowrap}
.sect table{table-layout:fixed}.sect td.id{width:72px}.sect td.lv{width:190px}.sect td.st{width:130px}.sect td:last-child{width:28%}
.sect h3{font-size:13px;margin:8px 10px 2px;color:#333}
code,pre,.mono{font:12px/1.4 ui-monospace,monospace}pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:6px 8px;margin:4px 0;max-height:480px;overflow:auto}
pre.msg{background:#fff5f5;border-left:3px solid var(--fail)}pre.wmsg{background:#fffaf0;border-left:3px solid var(--warn)}pre.dmsg{background:#f7f5ff;border-left:3px solid var(--dev)}
details{margin:4px 0}summary{cursor:pointer}details.grp{background:#fff;border:1px solid var(--line);border-radius:6px;margin:6px 0}
details.grp>summary{padding:6px 10px;font-weight:600}details.grp>summary .c{font-weight:400}
details.grp[open]>summary{border-bottom:1px solid var(--line)}
.sec td{background:#f8f9fb;color:#555;font-size:12px;padding-top:8px}
.m{color:#69707a;font-size:12px}.c span{margin-right:10px}.c .b{margin-right:2px}
.gap{font-size:11px;border:1px solid #b9a36b;color:#6b4e00;border-radius:3px;padding:0 4px;margin-left:4px;white-space:nowrap}
.sect td.lv .gap{display:block;width:max-content;max-width:100%;white-space:normal;margin:2px 0 0}
#tools{position:sticky;top:0;z-index:2;background:#f6f7f9;padding:8px 0;border-bottom:1px solid var(--line);display:flex;gap:8px;flex-wrap:wrap;align-items:center}
#tools input[type=search]{flex:1;min-width:220px;padding:5px 8px}#tools select{padding:4px}
.scn{background:#fff;border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:6px;padding:8px 12px;margin:10px 0}
.scn.s-WARNING,.scn.s-INTERRUPTED{border-left-color:#d99a00}.scn.s-KNOWN_DEVIATION{border-left-color:var(--dev)}
[id]{scroll-margin-top:64px}
.scn h3{margin:2px 0 4px}img.shot{max-width:min(100%,760px);border:1px solid #ccc;margin:4px 0}
.ex>summary{font:12px ui-monospace,monospace}
ul.tight{margin:4px 0;padding-left:20px}
.grp-cause{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:10px 0}.grp-cause>.scn{margin:6px 0;border-right:none;border-top:none;border-bottom:none}
h3.cause{margin:4px 0}.cause-lines li{font-size:12px}details.others>summary{font-weight:600;margin:6px 0}
@media print{
  #tools,.noprint,button{display:none!important}
  body{background:#fff;font-size:11px}header{background:#fff;color:#000;border-bottom:2px solid #000;padding:4px 0}header .meta{color:#333}
  main{padding:0;max-width:none}details.grp{border:none;margin:0}tr,.scn,.box{break-inside:avoid}
  pre{max-height:none;overflow:visible}a{color:inherit;text-decoration:none}
  .sect td.lv{width:96px}.sect td.st{width:112px}.sect td:last-child{width:20%}.gap{white-space:normal}
}
`;
