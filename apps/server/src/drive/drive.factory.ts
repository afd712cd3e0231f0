import type { ProviderAccessService } from '../oidc/provider-access.service';
import type { DriveFactory } from './drive.service';
import { GoogleDriveStore } from './google.drive';
import { LocalDriveStore } from './local.drive';
import { WebDavDriveStore } from './webdav.drive';

/** The real adapters behind DriveService; Google Drive gets live access tokens of the chosen account. */
export function createDriveFactory(providerAccess: ProviderAccessService, googleRootUrl?: string): DriveFactory {
  return (target) => {
    if (target.kind === 'local') return new LocalDriveStore(target.root);
    if (target.kind === 'webdav') {
      return new WebDavDriveStore({ url: target.url, username: target.username, password: target.password });
    }
    return new GoogleDriveStore({
      accessToken: (forceRefresh) =>
        forceRefresh
          ? providerAccess.refreshedAccessToken(target.ownerId, target.accountId)
          : providerAccess.accessToken(target.ownerId, target.accountId),
      ...(googleRootUrl ? { rootUrl: googleRootUrl } : {}),
    });
  };
}
