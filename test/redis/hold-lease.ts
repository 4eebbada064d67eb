/**
 * A process that takes a lease and holds it until it is killed: `hold-lease.ts <redis url> <key>
 * <ttl ms>`. Prints "held" once it has the lease.
 */
import { acquireLease } from '../../src/redis/lease.js';
import { createRedis } from '../../src/redis/connection.js';

const [url = '', key = '', ttl = '0'] = process.argv.slice(2);
const redis = createRedis(url);
const lease = await acquireLease(redis, key, Number(ttl));
process.stdout.write(lease ? 'held\n' : 'refused\n');
// Holds on (the renewal timer is unref'd) until the test kills this process.
setInterval(() => undefined, 60_000);
