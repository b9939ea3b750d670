// Who read an announcement, and when (paged, newest read first as the server sends them).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Modal, Table, Typography } from 'antd';
import { useContentReadersQuery, type AdminContentItem, type ContentReader } from '../contentApi.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';

export function ContentReaders({ item, onClose }: { item: AdminContentItem | undefined; onClose(): void }) {
  const { t } = useLingui();
  const [pageNo, setPageNo] = useState(1);
  const { data, isFetching, error } = useContentReadersQuery({ id: item?.id ?? '', pageNo }, { skip: !item, refetchOnMountOrArgChange: true });
  const title = item?.translations[0]?.title ?? '';
  const readers = data?.total ?? 0;
  return (
    <Modal open={!!item} onCancel={onClose} footer={null} width={720} title={t`Who read it`} destroyOnHidden>
      <Typography.Paragraph type="secondary">{title}</Typography.Paragraph>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 12 }} />}
      <Typography.Paragraph data-testid="content-readers-total">{t`Readers: ${readers}`}</Typography.Paragraph>
      <Table<ContentReader> rowKey="userId" size="small" loading={isFetching} dataSource={data?.records ?? []} data-testid="content-readers-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'user', title: t`User`, render: (_, reader) => <EmailText email={reader.account}> <Typography.Text type="secondary">#{reader.userId}</Typography.Text></EmailText> },
          { key: 'read', title: t`Read`, render: (_, reader) => <span className="admin-time">{formatTime(reader.readAt)}</span> },
        ]} />
    </Modal>
  );
}
