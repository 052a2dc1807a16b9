#!/usr/bin/env node
// A CronTab conversion webhook written the way many real ones are: Node.js, JSON.parse (numbers
// are float64), an annotation of its own on every object, and optionally slow. For convcheck's
// tests against third-party behaviour (tests/integration/node_webhook_test.cpp).
// Flags: --cert F --key F [--host H] [--port N] [--path P] [--delay-ms N] [--annotate KEY=VALUE]
//        [--modes M,M...] with modes (defects of real webhooks, off by default):
//          crash-missing-section  reads status without checking it is there: objects without
//                                 status fail with "Cannot convert undefined or null to object"
//          crash-missing-nested   reads spec.image without checking it is there: objects with a
//                                 status but no spec.image fail with "Cannot read properties of
//                                 undefined (reading 'split')"
//          lose-map-entries       converting to v1 drops every entry of spec.selector (a map keyed
//                                 by names the client chooses; tests/webhooks/crontabs-with-maps.yaml)
//        [--max-body-bytes N [--on-large-body 413|reset]]: refuse request bodies over N bytes, as
//        web frameworks do by default (express: 100kb), with a 413 or by resetting the connection
'use strict';
const https = require('https');
const fs = require('fs');

const args = {host: '127.0.0.1', port: '0', path: '/convert', 'delay-ms': '0'};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const modes = new Set((args.modes || '').split(',').filter((m) => m));
for (const m of modes) {
  if (!['crash-missing-section', 'crash-missing-nested', 'lose-map-entries'].includes(m)) {
    console.error(`unknown mode ${m}`);
    process.exit(2);
  }
}

// Defects as they are written: code that assumes a section or field is always there.
function copyStatus(out) {
  const status = {};
  for (const key of Object.keys(out.status)) status[key] = out.status[key];
  out.status = status;
}

// Reads the image's name, assuming that every CronTab with a status has an image.
function imageName(spec) {
  return spec.image.split(':')[0];
}

function convert(object, desired) {
  const out = JSON.parse(JSON.stringify(object));
  const from = String(object.apiVersion || '').split('/')[1];
  const to = desired.split('/')[1];
  if (!['v1beta1', 'v1'].includes(from) || !['v1beta1', 'v1'].includes(to)) {
    throw new Error(`unexpected conversion ${object.apiVersion} -> ${desired}`);
  }
  out.apiVersion = desired;
  if (modes.has('crash-missing-section')) copyStatus(out);
  if (modes.has('crash-missing-nested') && out.status !== undefined) imageName(out.spec);
  if (modes.has('lose-map-entries') && to === 'v1' && out.spec && out.spec.selector) {
    out.spec.selector = {};
  }
  const spec = out.spec;
  if (spec && typeof spec === 'object') {
    if (to === 'v1' && 'hostPort' in spec) {
      const parts = String(spec.hostPort).split(':');
      if (parts.length !== 2) throw new Error(`spec.hostPort: invalid value ${JSON.stringify(spec.hostPort)}`);
      delete spec.hostPort;
      spec.host = parts[0];
      spec.port = parts[1];
    } else if (to === 'v1beta1' && ('host' in spec || 'port' in spec)) {
      spec.hostPort = `${spec.host || ''}:${spec.port || ''}`;
      delete spec.host;
      delete spec.port;
    }
  }
  if (args.annotate) {
    const [key, value] = args.annotate.split('=');
    out.metadata = out.metadata || {};
    out.metadata.annotations = Object.assign({}, out.metadata.annotations, {[key]: value});
  }
  return out;
}

function answer(body) {
  const review = JSON.parse(body);
  const request = review.request || {};
  const response = {uid: request.uid || ''};
  try {
    response.convertedObjects = (request.objects || []).map((o) => convert(o, request.desiredAPIVersion));
    response.result = {status: 'Success'};
  } catch (e) {
    response.result = {status: 'Failure', message: e.message};
  }
  return JSON.stringify({apiVersion: review.apiVersion, kind: review.kind, response});
}

const server = https.createServer({cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key)}, (req, res) => {
  if (req.method !== 'POST' || req.url.split('?')[0] !== args.path) {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  let received = 0;
  const cap = Number(args['max-body-bytes'] || 0);
  req.on('data', (c) => {
    received += c.length;
    if (cap > 0 && received > cap) {
      if (args['on-large-body'] === 'reset') req.socket.destroy();
      return;  // 413: the rest is read and dropped, the answer comes at the end
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (cap > 0 && received > cap) {
      res.writeHead(413, {'Content-Type': 'text/plain'}).end('request entity too large');
      return;
    }
    let text;
    try {
      text = answer(Buffer.concat(chunks).toString('utf8'));
    } catch (e) {
      res.writeHead(400, {'Content-Type': 'text/plain'}).end(String(e));
      return;
    }
    setTimeout(() => res.writeHead(200, {'Content-Type': 'application/json'}).end(text), Number(args['delay-ms']));
  });
});
server.listen(Number(args.port), args.host, () => {
  console.log(`listening on https://${args.host}:${server.address().port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
