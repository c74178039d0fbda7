// t/browser/pages.mjs: drive Debian's chromium through the website pages
// (t/1030-pages.t) with puppeteer-core, twice: with JavaScript, then with
// JavaScript disabled. Each pass types QUERY into the search page's field
// q, submits the form, follows the first result to its route page, then
// opens the handle page and each extra page given, then the documentation
// index, the first endpoint page it links and the payment guide. It prints one JSON
// object: per pass, each page visited {url, status, contentType, text
// (main's innerText), html}, and what went wrong on the way (page errors,
// console errors, failed requests, answers of 400 or more); screenshots go
// to OUT/<pass>-<n>.png.
//
// usage: node pages.mjs BASE_URL OUT_DIR QUERY HANDLE [PATH...]
import { mkdirSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

const [base, out, query, handle, ...extra] = process.argv.slice(2);
if (!base || !out || !query || !handle) {
	console.error('usage: node pages.mjs BASE_URL OUT_DIR QUERY HANDLE [PATH...]');
	process.exit(2);
}
mkdirSync(out, { recursive: true });

const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	// A container that runs the tests as root has no user namespace for
	// chromium's sandbox: it refuses to start as root without --no-sandbox.
	// The pages it opens are our own, served locally.
	args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});

async function pass(name, js) {
	const page = await browser.newPage();
	await page.setJavaScriptEnabled(js);
	await page.setViewport({ width: 1024, height: 900 });
	const problems = [];
	const pages = [];
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
	page.on('requestfailed', (q) => problems.push(`request failed: ${q.url()} ${q.failure()?.errorText}`));
	page.on('response', (a) => { if (a.status() >= 400) problems.push(`status ${a.status()}: ${a.url()}`); });
	let n = 0;
	async function record(resp) {
		const text = await page.$eval('main', (m) => m.innerText).catch(() => null);
		const html = await page.content();
		await page.screenshot({ path: `${out}/${name}-${n++}.png`, fullPage: true });
		pages.push({ url: page.url(), status: resp ? resp.status() : null,
			contentType: resp ? resp.headers()['content-type'] : null, text, html });
	}
	let resp = await page.goto(`${base}/`, { waitUntil: 'load' });
	await record(resp);
	await page.type('input[name=q]', query);
	[resp] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
	await record(resp);
	const link = await page.$('a.route');
	if (link) {
		[resp] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), link.click()]);
		await record(resp);
	} else {
		problems.push('no result to follow');
	}
	for (const path of [`/handles/${encodeURIComponent(handle)}`, ...extra]) {
		resp = await page.goto(`${base}${path}`, { waitUntil: 'load' });
		await record(resp);
	}
	// The documentation: its index, the first endpoint page it links, and
	// from there the guide to paying and signing in.
	resp = await page.goto(`${base}/docs`, { waitUntil: 'load' });
	await record(resp);
	for (const sel of ['a[href^="/docs/endpoints/"]', 'a[href="/docs/pay-and-sign-in"]']) {
		const a = await page.$(sel);
		if (!a) {
			problems.push(`no link ${sel} on ${page.url()}`);
			break;
		}
		[resp] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), a.click()]);
		await record(resp);
	}
	await page.close();
	return { name, js, pages, problems };
}

let rc = 0;
try {
	const passes = [await pass('js', true), await pass('nojs', false)];
	process.stdout.write(JSON.stringify({ browser: await browser.version(), passes }) + '\n');
} catch (e) {
	console.error(`pages.mjs: ${e.stack || e}`);
	rc = 1;
} finally {
	await browser.close();
}
process.exit(rc);
