import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { Tabs } from '../../components/ui/tabs';
import { ActivityTab } from './activity-tab';
import { BankStatementsTab } from './bank-statements-tab';

type HistoryTab = 'activity' | 'bank-statements';
const TABS = [
  { value: 'activity', label: 'Activity' },
  { value: 'bank-statements', label: 'Bank Statements' },
] as const;

export function HistoryRoute() {
  const [tab, setTab] = useState<HistoryTab>('activity');
  return (
    <>
      <PageHeader title="History" description="Your recent jobs and bank statement uploads." />
      <Tabs label="History sections" items={TABS} value={tab} onChange={setTab}>
        {tab === 'activity' ? <ActivityTab /> : <BankStatementsTab />}
      </Tabs>
    </>
  );
}
