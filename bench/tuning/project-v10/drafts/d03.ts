import { Chart, LineController, LineElement, PointElement, LinearScale, TimeScale } from 'chart.js'
import { api } from '@/api'

Chart.register(LineController, LineElement, PointElement, LinearScale, TimeScale)

export async function renderFlow(canvas: HTMLCanvasElement, siteId: string) {
  const r = await api.get(`/sites/${siteId}/trend`, { params: { metric: 'flow_lps', bucket: '1h', hours: 168 } })
  const buckets = r.data.buckets
  return new Chart(canvas, {
    type: 'line',
    data: { labels: buckets.map((b: any) => b.t), datasets: [{ label: 'avg L/s', data: buckets.map((b: any) => b.avg) }] },
  })
}
