// The session hint: a tiny blocking script in the prerendered pages' <head> (the CSP forbids inline
// scripts), run before the first paint. It reads the session auth-js stored and sets
// <html data-session="none|valid|pending">, so styles.css shows the prerendered shell's right part at
// once: the Protected Resource screen only to a visitor without a session, a spinner otherwise, and
// the avatar's initial for a signed-in user. It never shows protected content: the HTML has none.
// Same rules as src/lib/stored-session.ts (stored-session.test.ts runs both).
(function () {
  var root = document.documentElement;
  var state = 'none';
  try {
    var el = document.getElementById('engage-config');
    var config = el ? JSON.parse(el.textContent) : null;
    var host = new URL((config && config.auth && config.auth.url) || location.origin).hostname;
    var hash = new URLSearchParams(location.hash.slice(1));
    var fromUrl = ['access_token', 'error', 'error_description', 'error_code'].some(function (p) {
      return hash.has(p);
    });
    if (fromUrl || new URLSearchParams(location.search).has('code')) {
      state = 'pending';
    } else {
      var s = JSON.parse(localStorage.getItem('sb-' + host.split('.')[0] + '-auth-token') || 'null');
      if (
        s &&
        typeof s.access_token === 'string' &&
        typeof s.refresh_token === 'string' &&
        typeof s.expires_at === 'number' &&
        s.user &&
        typeof s.user.id === 'string'
      ) {
        if (s.expires_at * 1000 - Date.now() > 90000) {
          state = 'valid';
          var email = typeof s.user.email === 'string' ? s.user.email.trim() : '';
          root.style.setProperty('--session-initial', JSON.stringify((email[0] || '?').toUpperCase()));
        } else {
          state = 'pending';
        }
      }
    }
  } catch {
    state = 'none';
  }
  root.setAttribute('data-session', state);
})();
