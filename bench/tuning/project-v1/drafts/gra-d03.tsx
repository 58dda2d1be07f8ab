import { Group, Select, Stack, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminApi } from '../api';

export function QueueMonitorPage() {
  const [size, setSize] = useState<string | null>('any');
  const queues = useQuery({ queryKey: ['queues', size], queryFn: () => adminApi.queues.list({ partySize: size }) });
  return (
    <Stack gap="md">
      <Group>
        <Select label="Party size" data={['any', '1', '2', '3', '5']} value={size} onChange={setSize} />
      </Group>
      <Table striped>{/* region, mode, waiting, oldest_wait_s */}</Table>
    </Stack>
  );
}
