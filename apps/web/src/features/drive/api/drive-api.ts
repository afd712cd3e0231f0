import {
  type DriveConnectionBody,
  DriveConnectionSchema,
  DriveStatusResponseSchema,
  JobStartedResponseSchema,
} from '@invoicebox/core';
import { useQuery } from '@tanstack/react-query';
import { api, apiUpload } from '../../../lib/api-client';

/** ['drive-status'] is one of the per-account keys dropped on an account switch (spec §4). */
export const driveStatusQueryKey = ['drive-status'] as const;

export const useDriveStatus = () =>
  useQuery({
    queryKey: driveStatusQueryKey,
    queryFn: ({ signal }) => api.post('/sync/drive/status', { schema: DriveStatusResponseSchema, signal }),
  });

export const useDriveConnection = () =>
  useQuery({
    queryKey: ['drive-connection'] as const,
    queryFn: ({ signal }) => api.get('/drive/connection', { schema: DriveConnectionSchema, signal }),
  });

export const saveDriveConnection = (body: DriveConnectionBody) =>
  api.put('/drive/connection', { schema: DriveConnectionSchema, body });

/** Uploads an mbox or .eml file; the import runs as a job whose id is returned. */
export const uploadMailFile = (file: File, accountEmail?: string) =>
  apiUpload('/imports/mail', file, {
    schema: JobStartedResponseSchema,
    query: accountEmail ? { account_email: accountEmail } : {},
  });
