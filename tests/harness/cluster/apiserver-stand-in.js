#!/usr/bin/env node
// A loopback HTTPS stand-in for the few kube-apiserver endpoints convcheck reaches through
// kubectl, with answers shaped as the Kubernetes API reference shows them: GET of one
// CustomResourceDefinition, LIST of a custom resource per version (limit/continue), and the
// service proxy (/api/v1/namespaces/NS/services/https:NAME:PORT/proxy/PATH) forwarded to a webhook
// on 127.0.0.1. Every request's verb and path is appended to --log. For tests/integration.
// Flags: --cert F --key F --crd FILE.json --objects FILE.json --token T --log FILE
//        --service NS/NAME:PORT=https://127.0.0.1:P [--page-size N]
'use strict';
const https = require('https');
const fs = require('fs');

const args = {'page-size': '2'};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const crd = JSON.parse(fs.readFileSync(args.crd, 'utf8'));
const objects = JSON.parse(fs.readFileSync(args.objects, 'utf8'));  // {"v1": [...], ...}
const [serviceKey, backend] = args.service.split('=');
const pageSize = Number(args['page-size']);

function status(res, code, reason, message) {
  res.writeHead(code, {'Content-Type': 'application/json'});
  res.end(JSON.stringify({kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code}));
}

function json(res, body) {
  res.writeHead(200, {'Content-Type': 'application/json'});
  res.end(JSON.stringify(body));
}

// LIST: at most min(limit, page size) items from the offset the continue token names.
function list(res, version, query) {
  const items = objects[version] || [];
  const limit = Number(query.get('limit') || items.length) || items.length;
  const start = query.has('continue') ? Number(Buffer.from(query.get('continue'), 'base64').toString()) : 0;
  const page = items.slice(start, start + Math.min(limit, pageSize));
  const next = start + page.length;
  const metadata = {resourceVersion: '9000'};
  if (next < items.length) {
    metadata.continue = Buffer.from(String(next)).toString('base64');
    metadata.remainingItemCount = items.length - next;
  }
  json(res, {apiVersion: `${crd.spec.group}/${version}`, kind: crd.spec.names.listKind, metadata, items: page});
}

// Forwards a request to the webhook; a ConversionReview's object names go to the log as
// "  objects NS/NAME ..." (a line of its own; concurrent requests may interleave).
function proxy(req, res, rest, search) {
  const forwarded = https.request(backend + rest + search, {
    method: req.method,
    headers: {'content-type': req.headers['content-type'] || 'application/json', accept: req.headers.accept || '*/*'},
    rejectUnauthorized: false,  // as kube-apiserver's service proxy: the backend is not verified
  }, (answer) => {
    res.writeHead(answer.statusCode, {'Content-Type': answer.headers['content-type'] || 'application/json'});
    answer.pipe(res);
  });
  forwarded.on('error', (e) => status(res, 503, 'ServiceUnavailable', `error trying to reach service: ${e.message}`));
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    try {
      const objects = (JSON.parse(body.toString()).request || {}).objects || [];
      const names = objects.map((o) => `${(o.metadata || {}).namespace || ''}/${(o.metadata || {}).name || ''}`);
      fs.appendFileSync(args.log, `  objects ${names.join(' ')}\n`);
    } catch (e) {
      fs.appendFileSync(args.log, `  objects (not a ConversionReview)\n`);
    }
    forwarded.end(body);
  });
}

const server = https.createServer({cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key)}, (req, res) => {
  const url = new URL(req.url, 'https://127.0.0.1');
  fs.appendFileSync(args.log, `${req.method} ${url.pathname}${url.search}\n`);
  if (req.headers.authorization !== `Bearer ${args.token}`) return status(res, 401, 'Unauthorized', 'Unauthorized');
  const path = url.pathname;
  const [ns, rest] = serviceKey.split('/');
  const proxyPrefix = `/api/v1/namespaces/${ns}/services/https:${rest}/proxy`;
  if (path === proxyPrefix || path.startsWith(proxyPrefix + '/')) return proxy(req, res, path.slice(proxyPrefix.length) || '/', url.search);
  if (req.method !== 'GET') return status(res, 405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
  if (path === '/version') return json(res, {major: '1', minor: '32', gitVersion: 'v1.32.0-stand-in', platform: 'linux/amd64'});
  if (path === `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`) return json(res, crd);
  if (path.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/'))
    return status(res, 404, 'NotFound', `customresourcedefinitions.apiextensions.k8s.io "${path.split('/').pop()}" not found`);
  const m = path.match(/^\/apis\/([^/]+)\/([^/]+)\/([^/]+)$/);
  if (m && m[1] === crd.spec.group && m[3] === crd.spec.names.plural && crd.spec.versions.some((v) => v.name === m[2] && v.served))
    return list(res, m[2], url.searchParams);
  return status(res, 404, 'NotFound', 'the server could not find the requested resource');
});
server.listen(0, '127.0.0.1', () => console.log(`listening on https://127.0.0.1:${server.address().port}`));
