const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The console's sign-in form: an instance administrator pastes an API token (from `npm run cli -- tokens:create`). */
export function loginPage(error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: operator console</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.5rem 0}input{padding:.5rem}button{padding:.6rem}.error{color:#b00020}</style>
</head><body>
<h1>Operator console</h1>
<p>Instance administrators sign in with an API token (<code>npm run --silent cli -- tokens:create --email you@example.com</code>).
Not one yet? <code>npm run --silent cli -- users:promote --email you@example.com</code> makes you one.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/admin/login">
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
</body></html>`;
}
