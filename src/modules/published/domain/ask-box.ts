import { createHash } from 'node:crypto';
import { escapeHtml } from '@app/common';

/**
 * The reader's Ask box: a form that, without script, searches the site (its `fallback` address);
 * with the script, posts the question to the site's `~gitbook/ask` and streams the answer in.
 * The answer's HTML is made and sanitized by the server; sources are built as text and links
 * whose addresses the script checks are the site's own.
 */
export function askBoxHtml(action: string, fallback: string): string {
  return (
    `<form class="ask" id="ask" role="search" action="${escapeHtml(fallback)}" method="get" data-ask="${escapeHtml(action)}">` +
    `<input type="text" name="q" placeholder="Ask a question…" aria-label="Ask a question" maxlength="512" required><button type="submit">Ask</button></form>` +
    `<section id="ask-answer" class="ask-answer" aria-live="polite" hidden></section>`
  );
}

/** Reads the server-sent events of `~gitbook/ask`: each `answer` replaces the last (passages first, then the model's). */
export const ASK_SCRIPT =
  "(function(){var f=document.getElementById('ask'),o=document.getElementById('ask-answer');if(!f||!o||!window.fetch||!window.TextDecoder)return;" +
  "function show(a){o.hidden=false;o.innerHTML=a.html;if(a.sources&&a.sources.length){var h=document.createElement('p');h.className='ask-sources';h.textContent='Sources: ';" +
  "a.sources.forEach(function(s,i){var u=new URL(s.url,location.href);if(u.origin!==location.origin)return;var l=document.createElement('a');l.href=u.href;l.textContent=s.title;if(i)h.appendChild(document.createTextNode(', '));h.appendChild(l);});o.appendChild(h);}}" +
  "f.addEventListener('submit',function(e){e.preventDefault();var q=f.elements.q.value.trim();if(!q)return;o.hidden=false;o.textContent='Thinking…';" +
  "fetch(f.dataset.ask,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({question:q}),credentials:'same-origin'}).then(function(r){" +
  "if(!r.ok||!r.body){return r.json().then(function(b){o.textContent=(b&&b.error&&b.error.message)||'No answer';},function(){o.textContent='No answer';});}" +
  "var rd=r.body.getReader(),dc=new TextDecoder(),buf='';function pump(){return rd.read().then(function(c){if(c.done)return;buf+=dc.decode(c.value,{stream:true});var parts=buf.split('\\n\\n');buf=parts.pop();" +
  "parts.forEach(function(p){if(p.indexOf('data: ')!==0)return;try{var ev=JSON.parse(p.slice(6));if(ev.type==='answer')show(ev);}catch(x){}});return pump();});}return pump();" +
  "}).catch(function(){o.textContent='No answer';});});})();";

export function askScriptHash(): string {
  return `'sha256-${createHash('sha256').update(ASK_SCRIPT).digest('base64')}'`;
}

export const ASK_BOX_STYLE =
  'form.ask{display:flex;gap:6px}form.ask input{padding:6px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);min-width:240px}' +
  'form.ask button{padding:6px 12px;border:1px solid var(--line);border-radius:6px;background:var(--primary);color:#fff;cursor:pointer}' +
  '.ask-answer{margin:12px 24px;padding:12px 16px;border:1px solid var(--line);border-radius:8px;background:var(--soft)}.ask-sources{font-size:14px;color:var(--muted)}';
