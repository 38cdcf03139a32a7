import { Link } from 'react-router';
import { IconBooks, IconMapPin, IconPlus, IconTimeline, IconUsers } from '@tabler/icons-react';
import { AttachTarget, Menu, type PopoverLayerProps } from '@/lib/first-load';

/** The Current Project panel's more-menu (ProjectPanels), loaded and mounted when first opened. */
export default function ProjectMoreMenu({ opened, onChange, target, id, seriesId }: PopoverLayerProps & { seriesId: string }) {
  return (
    <Menu id={id} opened={opened} onChange={onChange} position="bottom-end" withinPortal>
      <Menu.Target>
        <AttachTarget target={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={`/series/${seriesId}`} leftSection={<IconBooks size={16} />}>
          View All Books
        </Menu.Item>
        <Menu.Item component={Link} to={`/series/${seriesId}/books/new`} leftSection={<IconPlus size={16} />}>
          Add New Book
        </Menu.Item>
        <Menu.Item component={Link} to="/characters" leftSection={<IconUsers size={16} />}>
          Manage Characters
        </Menu.Item>
        <Menu.Item component={Link} to="/world" leftSection={<IconMapPin size={16} />}>
          Manage Locations
        </Menu.Item>
        <Menu.Item component={Link} to="/timeline" leftSection={<IconTimeline size={16} />}>
          View Timeline
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
