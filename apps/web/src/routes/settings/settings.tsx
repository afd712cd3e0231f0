import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { Tabs } from '../../components/ui/tabs';
import { AccountManagement } from './account-management';
import { DataPrivacy } from './data-privacy';

type SettingsTab = 'accounts' | 'privacy';
const TABS = [
  { value: 'accounts', label: 'Account Management' },
  { value: 'privacy', label: 'Data & Privacy' },
] as const;

export function SettingsRoute() {
  const [tab, setTab] = useState<SettingsTab>('accounts');
  return (
    <>
      <PageHeader title="Settings" description="Your accounts and how your data is handled." />
      <Tabs label="Settings sections" items={TABS} value={tab} onChange={setTab}>
        {tab === 'accounts' ? <AccountManagement /> : <DataPrivacy />}
      </Tabs>
    </>
  );
}
