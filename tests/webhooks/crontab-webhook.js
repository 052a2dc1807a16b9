#!/usr/bin/env node
// A CronTab conversion webhook written the way many real ones are: Node.js, JSON.parse (numbers
// are float64), an annotation of its own on every object, and optionally slow. For convcheck's
// tests against third-party behaviour (tests/integration/node_webhook_test.cpp).
// Flags: --cert F --key F [--host H] [--port N] [--path P] [--delay-ms N] [--annotate KEY=VALUE]
'use strict';
const https = require('https');
const fs = require('fs');

const args = {host: '127.0.0.1', port: '0', path: '/convert', 'delay-ms': '0'};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

function convert(object, desired) {
  const out = JSON.parse(JSON.stringify(object));
  const from = String(object.apiVersion || '').split('/')[1];
  const to = desired.split('/')[1];
  if (!['v1beta1', 'v1'].includes(from) || !['v1beta1', 'v1'].includes(to)) {
    throw new Error(`unexpected conversion ${object.apiVersion} -> ${desired}`);
  }
  out.apiVersion = desired;
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
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
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
