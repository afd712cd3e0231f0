import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

const POINTS: ReadonlyArray<{ title: string; text: string }> = [
  {
    title: 'Local processing',
    text: 'Your emails are read and analysed by this Invoicebox server; nothing is sent to third parties unless you configure a model provider.',
  },
  {
    title: 'Only invoice metadata is stored',
    text: 'Invoicebox keeps vendor, amount, date and status of each invoice, not the content of your other emails.',
  },
  {
    title: 'Your own drive',
    text: 'Invoice files are stored in the drive you connect, organised by date. You keep full ownership.',
  },
  {
    title: 'Disconnecting accounts',
    text: 'You can disconnect a mail account at any time; Invoicebox then stops reading it.',
  },
];

export function DataPrivacy() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Data & Privacy</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="space-y-4">
          {POINTS.map(({ title, text }) => (
            <div key={title}>
              <dt className="font-medium text-slate-900">{title}</dt>
              <dd className="mt-1 text-sm text-slate-600">{text}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
