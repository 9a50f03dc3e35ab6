// zod probes `new Function` to compile fast parsers. Verity's CSP forbids eval, and Chromium reports even the
// caught probe as a violation, so the browser runs zod's plain interpreter (the forms' schemas are small). zod
// reads this object when it loads; as a classic script this runs before any module of the app.
globalThis.__zod_globalConfig = Object.assign({}, globalThis.__zod_globalConfig, { jitless: true });
