import type { OutboundPolicy } from '../net/outbound';
import type { ProviderAccessService } from '../oidc/provider-access.service';
import { ReauthRequiredError } from '../oidc/provider-access.service';
import type { DriveFactory } from './drive.service';
import { DriveAuthError } from './drive.store';
import { GoogleDriveStore } from './google.drive';
import { LocalDriveStore } from './local.drive';
import { WebDavDriveStore } from './webdav.drive';

/**
 * The real adapters behind DriveService; Google Drive gets live access tokens of the chosen account. WebDAV servers
 * are people's URLs and reach only the addresses `outbound` allows (Google's root URL is the operator's).
 */
export function createDriveFactory(
  providerAccess: ProviderAccessService,
  googleRootUrl?: string,
  googleOptions: { backoffMs?: number } = {},
  outbound: OutboundPolicy = { allowPrivate: false },
): DriveFactory {
  return (target) => {
    if (target.kind === 'local') return new LocalDriveStore(target.root);
    if (target.kind === 'webdav') {
      return new WebDavDriveStore({
        url: target.url,
        username: target.username,
        password: target.password,
        outbound,
      });
    }
    return new GoogleDriveStore({
      accessToken: async (forceRefresh) => {
        try {
          return forceRefresh
            ? await providerAccess.refreshedAccessToken(target.ownerId, target.accountId)
            : await providerAccess.accessToken(target.ownerId, target.accountId);
        } catch (error) {
          // No usable grant: the drive needs a new sign-in, which stops the upload run (not one invoice).
          if (error instanceof ReauthRequiredError) throw new DriveAuthError(error.message);
          throw error;
        }
      },
      ...(googleRootUrl ? { rootUrl: googleRootUrl } : {}),
      ...googleOptions,
    });
  };
}
