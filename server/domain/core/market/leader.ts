// Which instance runs the engines. On PostgreSQL the leader is the instance whose dedicated session
// holds a session-level advisory lock: when that process dies its session ends and PostgreSQL
// releases the lock, so the next instance that tries (every few seconds) takes over; no lease
// table, no clock to trust. The holder checks its session at the same pace and steps down when it
// is gone. On embedded PGlite there is one process, and it always leads.
import pg from 'pg';

export interface Leadership {
  readonly leading: boolean;
  /**
   * Starts seeking the lock. `onChange(true)` is called on gaining it and `onChange(false)` on
   * losing it; the promise resolves once the first attempt has been made.
   */
  start(onChange: (leading: boolean) => void): Promise<void>;
  /** Stops seeking and releases the lock; `onChange` is not called for this. */
  stop(): Promise<void>;
}

/** The engine lock's key: "bourse" in ASCII. Advisory locks are per database, so test databases do not collide. */
export const engineLockKey = 0x626f75727365n;

export const lockRetryIntervalMs = 3_000;

/** The single process of an embedded database leads from the start. */
export function singleProcessLeadership(): Leadership {
  let leading = false;
  return {
    get leading() { return leading; },
    async start(onChange) {
      leading = true;
      onChange(true);
    },
    async stop() {
      leading = false;
    },
  };
}

export interface AdvisoryLockOptions {
  databaseUrl: string;
  lockKey?: bigint;
  /** Pace of the attempts while following and of the session checks while leading. */
  retryIntervalMs?: number;
  onError?: (error: unknown) => void;
}

export function advisoryLockLeadership(options: AdvisoryLockOptions): Leadership {
  const lockKey = String(options.lockKey ?? engineLockKey);
  const retryIntervalMs = options.retryIntervalMs ?? lockRetryIntervalMs;
  const onError = options.onError ?? (() => {});
  let client: pg.Client | undefined;
  let leading = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt: Promise<void> = Promise.resolve();
  let notify: (leading: boolean) => void = () => {};

  const setLeading = (value: boolean) => {
    if (leading === value) return;
    leading = value;
    if (!stopped) notify(value);
  };

  /** The session is gone or unusable: whatever it held is released, so this instance no longer leads. */
  const dropSession = (session: pg.Client, error: unknown) => {
    if (client !== session) return;
    client = undefined;
    onError(error);
    session.end().catch(() => {});
    setLeading(false);
  };

  const connect = async (): Promise<pg.Client> => {
    const session = new pg.Client({
      connectionString: options.databaseUrl, application_name: 'bourse-engine-lock',
      keepAlive: true, query_timeout: Math.max(retryIntervalMs, 5_000), connectionTimeoutMillis: 10_000,
    });
    session.on('error', (error) => dropSession(session, error));
    client = session;
    await session.connect();
    // If this machine vanishes without closing the connection, PostgreSQL must still notice, end
    // the session and free the lock: probe the peer within about half a minute, and end a session
    // that has been silent far longer than the checks' pace (PostgreSQL 14+; older ones lack it).
    await session.query('set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3');
    await session.query(`set idle_session_timeout = ${Math.max(30_000, retryIntervalMs * 10)}`).catch(() => {});
    return session;
  };

  const tryOnce = async () => {
    let session = client;
    try {
      session ??= await connect();
      if (leading) {
        await session.query('select 1');
      } else {
        const { rows } = await session.query<{ acquired: boolean }>('select pg_try_advisory_lock($1::bigint) as acquired', [lockKey]);
        if (rows[0].acquired && !stopped) setLeading(true);
      }
    } catch (error) {
      if (session) dropSession(session, error);
      else onError(error);
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      attempt = tryOnce().finally(schedule);
    }, retryIntervalMs);
  };

  return {
    get leading() { return leading; },
    async start(onChange) {
      notify = onChange;
      attempt = tryOnce();
      await attempt;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await attempt;
      const session = client;
      client = undefined;
      if (session) {
        // Ending the session releases the lock as well; unlocking first makes the intent plain.
        if (leading) await session.query('select pg_advisory_unlock($1::bigint)', [lockKey]).catch(onError);
        await session.end().catch(onError);
      }
      leading = false;
    },
  };
}
