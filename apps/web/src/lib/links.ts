/**
 * Outbound links of the footer and the error screens. Invoicebox is self-hosted: its documentation is served by
 * the same server (the README and the architecture notes of the installed version).
 */
export const DOCS_URL = '/docs';
/** Where a person stuck on an error finds help: the troubleshooting part of the same documentation. */
export const SUPPORT_URL = '/docs';
/** The server's OpenAPI description of /api/v1. */
export const API_DOCS_URL = '/api/v1/openapi.json';
