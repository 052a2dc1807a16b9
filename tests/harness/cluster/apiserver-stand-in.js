#!/usr/bin/env node
// A loopback HTTPS stand-in for the few kube-apiserver endpoints convcheck reaches through
// kubectl, with answers shaped as the Kubernetes API reference shows them: GET of one
// CustomResourceDefinition, LIST of a custom resource per version (limit/continue), and the
// service proxy (/api/v1/namespaces/NS/services/https:NAME:PORT/proxy/PATH) forwarded to a webhook
// on 127.0.0.1, and what `kubectl port-forward service/NAME` reads and upgrades: discovery of the
// core group, the Service (selector app=NAME, port PORT -> targetPort 9443), its one Running Pod
// and pods/POD/portforward (portforward-stand-in.js), relayed to the webhook's TCP port.
// Every request's verb and path is appended to --log. For tests/integration.
// Flags: --cert F --key F --crd FILE.json --objects FILE.json --token T --log FILE
//        --service NS/NAME:PORT=https://127.0.0.1:P [--page-size N] [--websocket off]
//        [--drop-port-forward-after N] (cut a port-forward tunnel after N connections)
'use strict';
const https = require('https');
const fs = require('fs');
const {upgradePortForward} = require('./portforward-stand-in');

const args = {'page-size': '2'};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const crd = JSON.parse(fs.readFileSync(args.crd, 'utf8'));
const objects = JSON.parse(fs.readFileSync(args.objects, 'utf8'));  // {"v1": [...], ...}
const [serviceKey, backend] = args.service.split('=');
const pageSize = Number(args['page-size']);
const [serviceNs, serviceRest] = serviceKey.split('/');
const [serviceName, servicePort] = serviceRest.split(':');
const kTargetPort = 9443;
const podName = `${serviceName}-7c9d8b6f5-x2x4q`;
const podsPath = `/api/v1/namespaces/${serviceNs}/pods`;

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

// The core group's discovery and the Namespace, Service, Pods and Pod kubectl port-forward reads,
// or null.
function coreObjects(path, query) {
  if (path === '/api') return {kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1'}]};
  if (path === '/apis') return {kind: 'APIGroupList', apiVersion: 'v1', groups: []};
  if (path === '/api/v1')
    return {kind: 'APIResourceList', groupVersion: 'v1', resources: [
      {name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po']},
      {name: 'pods/portforward', singularName: '', namespaced: true, kind: 'PodPortForwardOptions', verbs: ['create', 'get']},
      {name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: ['get', 'list'], shortNames: ['svc']}]};
  const labels = {app: serviceName};
  const pod = {apiVersion: 'v1', kind: 'Pod', metadata: {name: podName, namespace: serviceNs, labels, uid: 'b1f0c7d2-0000-4000-8000-000000000001'},
               spec: {containers: [{name: 'webhook', image: 'example/webhook', ports: [{name: 'https', containerPort: kTargetPort, protocol: 'TCP'}]}]},
               status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}]}};
  if (path === `/api/v1/namespaces/${serviceNs}`)
    return {apiVersion: 'v1', kind: 'Namespace', metadata: {name: serviceNs}, status: {phase: 'Active'}};
  if (path === `/api/v1/namespaces/${serviceNs}/services/${serviceName}`)
    return {apiVersion: 'v1', kind: 'Service', metadata: {name: serviceName, namespace: serviceNs},
            spec: {selector: labels, ports: [{name: 'https', port: Number(servicePort), targetPort: kTargetPort, protocol: 'TCP'}]}};
  if (path === podsPath && query.get('labelSelector') === `app=${serviceName}`)
    return {apiVersion: 'v1', kind: 'PodList', metadata: {resourceVersion: '9000'}, items: [pod]};
  if (path === `${podsPath}/${podName}`) return pod;
  return null;
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
  const core = coreObjects(path, url.searchParams);
  if (core) return json(res, core);
  const missing = path.match(/^\/api\/v1\/namespaces\/[^/]+\/(services|pods)\/([^/]+)$/);
  if (missing) return status(res, 404, 'NotFound', `${missing[1]} "${missing[2]}" not found`);
  if (path === '/version') return json(res, {major: '1', minor: '32', gitVersion: 'v1.32.0-stand-in', platform: 'linux/amd64'});
  if (path === `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`) return json(res, crd);
  if (path.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/'))
    return status(res, 404, 'NotFound', `customresourcedefinitions.apiextensions.k8s.io "${path.split('/').pop()}" not found`);
  const m = path.match(/^\/apis\/([^/]+)\/([^/]+)\/([^/]+)$/);
  if (m && m[1] === crd.spec.group && m[3] === crd.spec.names.plural && crd.spec.versions.some((v) => v.name === m[2] && v.served))
    return list(res, m[2], url.searchParams);
  return status(res, 404, 'NotFound', 'the server could not find the requested resource');
});
// kubectl port-forward's upgrade of pods/POD/portforward (POST for SPDY, GET for a WebSocket).
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'https://127.0.0.1');
  fs.appendFileSync(args.log, `${req.method} ${url.pathname}${url.search}\n`);
  if (req.headers.authorization !== `Bearer ${args.token}` || url.pathname !== `${podsPath}/${podName}/portforward`) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const relayTo = Number(new URL(backend).port);
  const log = (line) => fs.appendFileSync(args.log, line + '\n');
  const how = upgradePortForward(req, socket, head, {
    podName, port: kTargetPort, relayTo, webSocket: args.websocket !== 'off', log,
    dropAfter: Number(args['drop-port-forward-after'] || 0)});
  log(`  upgrade ${how}`);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on https://127.0.0.1:${server.address().port}`));
