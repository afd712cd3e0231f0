/** Spec §9 constants the web app uses. */
export const HOUR_MS = 60 * 60 * 1000;
export const CACHE_STALE_TIME_MS = HOUR_MS;
export const CACHE_GC_TIME_MS = 24 * HOUR_MS;
export const CACHE_PERSIST_THROTTLE_MS = 1000;
export const CACHE_PERSIST_MAX_AGE_MS = 24 * HOUR_MS;
export const QUERY_MAX_RETRIES = 2;
export const JOB_POLL_INTERVAL_MS = 2000;
export const JOB_CLEAR_DELAY_MS = 2000;
export const JOB_FINAL_TOAST_MS = 5000;
export const HISTORY_JOB_LIMIT = 20;
export const SIDEBAR_BREAKPOINT_PX = 1024;
export const ERROR_BOUNDARY_MAX_RETRIES = 3;
