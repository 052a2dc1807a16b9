// The server side of `kubectl port-forward` for apiserver-stand-in.js, in Node's core modules
// only: the upgrade of POST .../pods/NAME/portforward to SPDY/3.1 (X-Stream-Protocol-Version:
// portforward.k8s.io) and of GET with a WebSocket carrying the same SPDY bytes in binary messages
// (subprotocol SPDY/3.1+portforward.k8s.io, what kubectl 1.31+ tries first), then kubelet's
// port-forward protocol on top: per forwarded connection an "error" and a "data" stream sharing a
// requestid, the data stream relayed to a TCP port on 127.0.0.1.
'use strict';
const crypto = require('crypto');
const net = require('net');
const zlib = require('zlib');

// The zlib dictionary of SPDY/3 header blocks (draft-mbelshe-httpbis-spdy-00, 2.6.10.1): these
// words, each after its 32-bit big-endian length, then the text that follows.
const kDictionaryWords = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset',
  'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow', 'authorization',
  'cache-control', 'connection', 'content-base', 'content-encoding', 'content-language',
  'content-length', 'content-location', 'content-md5', 'content-range', 'content-type', 'date',
  'etag', 'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match',
  'if-range', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'pragma',
  'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after', 'server', 'te',
  'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
  'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public',
  'set-cookie', 'keep-alive', 'origin',
];
const kDictionaryTail =
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
  '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request' +
  '401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented' +
  '503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ' +
  'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,' +
  'application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=' +
  'gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';
const kDictionary = Buffer.concat([
  ...kDictionaryWords.map((w) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(w.length);
    return Buffer.concat([length, Buffer.from(w, 'latin1')]);
  }),
  Buffer.from(kDictionaryTail, 'latin1'),
]);

const SYN_STREAM = 1, SYN_REPLY = 2, RST_STREAM = 3, PING = 6, GOAWAY = 7;
const FLAG_FIN = 1;
const kWebSocketGuid = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const kTunnelProtocol = 'SPDY/3.1+portforward.k8s.io';

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function controlFrame(type, flags, body) {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | 3, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
}

function dataFrame(id, flags, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id & 0x7fffffff, 0);
  head.writeUInt32BE(data.length, 4);
  head[4] = flags;
  return Buffer.concat([head, data]);
}

// One SPDY/3.1 session as the server: reads the client's frames from `feed(bytes)`, writes frames
// with `send(buffer)`. Header blocks from the client are inflated with the dictionary (one zlib
// stream per direction and session); the server's own blocks are zlib "stored" blocks, which any
// inflater reads whatever its dictionary.
class SpdySession {
  constructor(send, onStream, onError) {
    this.send = send;
    this.onStream = onStream;  // (stream) => void, for each SYN_STREAM
    this.onError = onError;
    this.pending = Buffer.alloc(0);
    this.compressedIn = Buffer.alloc(0);  // every header block so far, one zlib stream
    this.inflatedLength = 0;
    this.zlibHeaderSent = false;
    this.streams = new Map();
    this.closed = false;
  }

  feed(bytes) {
    this.pending = Buffer.concat([this.pending, bytes]);
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4) & 0xffffff;
      if (this.pending.length < 8 + length) return;
      const frame = this.pending.subarray(0, 8 + length);
      this.pending = this.pending.subarray(8 + length);
      try {
        this.handle(frame);
      } catch (e) {
        this.onError(e);
        return;
      }
    }
  }

  // The header block's name/value pairs, names as sent (SPDY/3 names are lower-case).
  inflateHeaders(block) {
    // Inflating the whole zlib stream again keeps this synchronous with Node's public API; header
    // blocks are small and few (two per forwarded connection).
    this.compressedIn = Buffer.concat([this.compressedIn, block]);
    const all = zlib.inflateSync(this.compressedIn,
                                 {dictionary: kDictionary, finishFlush: zlib.constants.Z_SYNC_FLUSH});
    const plain = all.subarray(this.inflatedLength);
    this.inflatedLength = all.length;
    const headers = {};
    let at = 4;
    for (let n = plain.readUInt32BE(0); n > 0; --n) {
      const nameLength = plain.readUInt32BE(at);
      const name = plain.subarray(at + 4, at + 4 + nameLength).toString();
      at += 4 + nameLength;
      const valueLength = plain.readUInt32BE(at);
      headers[name] = plain.subarray(at + 4, at + 4 + valueLength).toString();
      at += 4 + valueLength;
    }
    return headers;
  }

  // An empty header block as a zlib stored block and the empty stored block of a sync flush
  // (which makes an inflater hand out what it has), after the stream's two-byte header, once.
  emptyHeaderBlock() {
    const plain = u32(0);
    const stored = Buffer.concat([Buffer.from([0x00, plain.length, 0x00, ~plain.length & 0xff, 0xff]), plain,
                                  Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff])]);
    if (this.zlibHeaderSent) return stored;
    this.zlibHeaderSent = true;
    return Buffer.concat([Buffer.from([0x78, 0x01]), stored]);
  }

  handle(frame) {
    const control = (frame[0] & 0x80) !== 0;
    const flags = frame[4];
    const body = frame.subarray(8);
    if (!control) {
      const stream = this.streams.get(frame.readUInt32BE(0) & 0x7fffffff);
      if (!stream) return;
      if (body.length > 0) stream.onData(body);
      if (flags & FLAG_FIN) stream.onRemoteEnd();
      return;
    }
    const type = frame.readUInt16BE(2);
    if (type === SYN_STREAM) {
      const id = body.readUInt32BE(0) & 0x7fffffff;
      const headers = this.inflateHeaders(body.subarray(10));
      const stream = new SpdyStream(this, id, headers);
      this.streams.set(id, stream);
      this.send(controlFrame(SYN_REPLY, 0, Buffer.concat([u32(id), this.emptyHeaderBlock()])));
      this.onStream(stream);
      if (flags & FLAG_FIN) stream.onRemoteEnd();
    } else if (type === RST_STREAM) {
      const stream = this.streams.get(body.readUInt32BE(0) & 0x7fffffff);
      if (stream) stream.onReset();
    } else if (type === PING) {
      this.send(controlFrame(PING, 0, body));
    } else if (type === GOAWAY) {
      this.close();
    }
    // SETTINGS, WINDOW_UPDATE, HEADERS: nothing to do (no flow control here; kubectl needs none).
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) stream.onReset();
  }
}

class SpdyStream {
  constructor(session, id, headers) {
    this.session = session;
    this.id = id;
    this.headers = headers;
    this.ended = false;
    this.onData = () => {};
    this.onRemoteEnd = () => {};
    this.onReset = () => {};
  }

  write(data) {
    for (let at = 0; at < data.length && !this.ended; at += 16384)
      this.session.send(dataFrame(this.id, 0, data.subarray(at, at + 16384)));
  }

  end() {
    if (this.ended || this.session.closed) return;
    this.ended = true;
    this.session.send(dataFrame(this.id, FLAG_FIN, Buffer.alloc(0)));
  }
}

// kubelet's side of port-forward: streams pair by requestid; a data stream for `port` is relayed
// to 127.0.0.1:`relayTo`, any other port gets kubelet's error on the error stream. With
// `dropAfter` N > 0 the whole tunnel is cut (`drop()`) once N connections were forwarded, as when
// the pod goes away.
function servePortForward(session, {podName, port, relayTo, log, dropAfter}, drop) {
  const pairs = new Map();
  let forwarded = 0;
  return (stream) => {
    const id = stream.headers.requestid;
    const pair = pairs.get(id) || {};
    pairs.set(id, pair);
    pair[stream.headers.streamtype] = stream;
    if (!pair.error || !pair.data) return;
    pairs.delete(id);
    const finish = (message) => {
      if (message) pair.error.write(Buffer.from(message));
      pair.error.end();
      pair.data.end();
    };
    if (Number(stream.headers.port) !== port)
      return finish(`error forwarding port ${stream.headers.port} to pod ${podName}: no such port`);
    log(`  forwarded connection ${id} to port ${port}`);
    if (dropAfter > 0 && ++forwarded > dropAfter) {
      log('  tunnel dropped');
      return drop();
    }
    const backend = net.connect(relayTo, '127.0.0.1');
    let backendEnded = false;
    pair.data.onData = (data) => backend.write(data);
    pair.data.onRemoteEnd = () => backend.end();
    pair.data.onReset = () => backend.destroy();
    backend.on('data', (data) => pair.data.write(data));
    backend.on('end', () => { backendEnded = true; });
    backend.on('error', (e) => finish(`error forwarding port ${port} to pod ${podName}: ${e.message}`));
    backend.on('close', () => { if (backendEnded) finish(''); });
  };
}

// The WebSocket framing around a tunnel: binary (and continuation) messages in, binary out.
function webSocketTunnel(socket, onBytes, onClose) {
  let pending = Buffer.alloc(0);
  socket.on('data', (bytes) => {
    pending = Buffer.concat([pending, bytes]);
    for (;;) {
      if (pending.length < 2) return;
      const opcode = pending[0] & 0x0f;
      const masked = (pending[1] & 0x80) !== 0;
      let length = pending[1] & 0x7f, at = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        at = 10;
      }
      const maskAt = at;
      if (masked) at += 4;
      if (pending.length < at + length) return;
      const payload = Buffer.from(pending.subarray(at, at + length));
      if (masked) for (let i = 0; i < payload.length; ++i) payload[i] ^= pending[maskAt + (i % 4)];
      pending = pending.subarray(at + length);
      if (opcode === 0x0 || opcode === 0x2) onBytes(payload);
      else if (opcode === 0x9) socket.write(webSocketFrame(0xa, payload));
      else if (opcode === 0x8) {
        socket.end(webSocketFrame(0x8, payload.subarray(0, 2)));
        onClose();
        return;
      }
    }
  });
  return (bytes) => socket.write(webSocketFrame(0x2, bytes));
}

function webSocketFrame(opcode, payload) {
  let head;
  if (payload.length < 126) {
    head = Buffer.from([0x80 | opcode, payload.length]);
  } else if (payload.length < 65536) {
    head = Buffer.alloc(4);
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(payload.length, 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([head, payload]);
}

// Handles an 'upgrade' of .../pods/POD/portforward: `req` as Node's server gives it. With
// `webSocket` false a WebSocket upgrade is refused (400), as API servers before 1.31 answer,
// and kubectl falls back to SPDY. Returns a description for the log.
function upgradePortForward(req, socket, head, options) {
  const {webSocket, log} = options;
  const upgrade = String(req.headers.upgrade || '').toLowerCase();
  const onError = (e) => { log(`  port-forward session error: ${e.message}`); socket.destroy(); };
  if (upgrade === 'websocket') {
    const offered = String(req.headers['sec-websocket-protocol'] || '').split(',').map((p) => p.trim());
    if (!webSocket || !offered.includes(kTunnelProtocol)) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 29\r\n\r\n' +
                 'websocket upgrade not served\n');
      return 'refused (WebSocket)';
    }
    const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + kWebSocketGuid).digest('base64');
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
                 `Sec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${kTunnelProtocol}\r\n\r\n`);
    let session;
    const send = webSocketTunnel(socket, (bytes) => session.feed(bytes), () => session.close());
    session = new SpdySession(send, null, onError);
    session.onStream = servePortForward(session, options, () => socket.destroy());
    socket.on('close', () => session.close());
    socket.on('error', () => session.close());
    if (head && head.length) socket.emit('data', head);
    return 'WebSocket (SPDY/3.1 tunnelled)';
  }
  if (upgrade !== 'spdy/3.1' || !String(req.headers['x-stream-protocol-version'] || '').includes('portforward.k8s.io')) {
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    return 'refused (unknown upgrade)';
  }
  socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n' +
               'X-Stream-Protocol-Version: portforward.k8s.io\r\n\r\n');
  const session = new SpdySession((bytes) => socket.write(bytes), null, onError);
  session.onStream = servePortForward(session, options, () => socket.destroy());
  socket.on('data', (bytes) => session.feed(bytes));
  socket.on('close', () => session.close());
  socket.on('error', () => session.close());
  if (head && head.length) session.feed(head);
  return 'SPDY/3.1';
}

module.exports = {upgradePortForward, kDictionary};
